/** Shell sort (Ciura gaps) of 60000 longs. */
public class SortShell {
    public static long run() {
        long[] a = new long[60000];
        long seed = 9;
        for (int i = 0; i < a.length; i++) { seed = seed * 6364136223846793005L + 1442695040888963407L; a[i] = seed >>> 20; }
        int[] gaps = { 10318, 4585, 2041, 701, 301, 132, 57, 23, 10, 4, 1 };
        for (int g : gaps)
            for (int i = g; i < a.length; i++) {
                long v = a[i];
                int j = i;
                while (j >= g && a[j - g] > v) { a[j] = a[j - g]; j -= g; }
                a[j] = v;
            }
        return a[0] ^ a[a.length - 1];
    }
    public static void main(String[] args) { System.out.println(run()); }
}
