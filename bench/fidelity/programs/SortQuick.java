/** Recursive quicksort of 60000 ints: calls plus array work. */
public class SortQuick {
    static void sort(int[] a, int lo, int hi) {
        if (lo >= hi) return;
        int p = a[(lo + hi) >>> 1], i = lo, j = hi;
        while (i <= j) {
            while (a[i] < p) i++;
            while (a[j] > p) j--;
            if (i <= j) { int t = a[i]; a[i] = a[j]; a[j] = t; i++; j--; }
        }
        sort(a, lo, j);
        sort(a, i, hi);
    }
    public static long run() {
        int[] a = new int[60000];
        long seed = 3;
        for (int i = 0; i < a.length; i++) { seed = seed * 6364136223846793005L + 1442695040888963407L; a[i] = (int) (seed >>> 33); }
        sort(a, 0, a.length - 1);
        return a[7] + a[a.length - 7];
    }
    public static void main(String[] args) { System.out.println(run()); }
}
