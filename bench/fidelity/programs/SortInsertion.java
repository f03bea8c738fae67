/** Insertion sort of 1400 pseudo-random ints. */
public class SortInsertion {
    public static long run() {
        int[] a = new int[1400];
        long seed = 7;
        for (int i = 0; i < a.length; i++) { seed = seed * 6364136223846793005L + 1442695040888963407L; a[i] = (int) (seed >>> 33); }
        for (int i = 1; i < a.length; i++) {
            int v = a[i], j = i - 1;
            while (j >= 0 && a[j] > v) { a[j + 1] = a[j]; j--; }
            a[j + 1] = v;
        }
        return a[0] + a[a.length - 1];
    }
    public static void main(String[] args) { System.out.println(run()); }
}
