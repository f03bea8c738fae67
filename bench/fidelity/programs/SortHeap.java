/** Heap sort of 50000 ints with a sift-down helper. */
public class SortHeap {
    static void sift(int[] a, int i, int n) {
        while (true) {
            int c = 2 * i + 1;
            if (c >= n) return;
            if (c + 1 < n && a[c + 1] > a[c]) c++;
            if (a[i] >= a[c]) return;
            int t = a[i]; a[i] = a[c]; a[c] = t;
            i = c;
        }
    }
    public static long run() {
        int[] a = new int[50000];
        long seed = 5;
        for (int i = 0; i < a.length; i++) { seed = seed * 6364136223846793005L + 1442695040888963407L; a[i] = (int) (seed >>> 33); }
        for (int i = a.length / 2 - 1; i >= 0; i--) sift(a, i, a.length);
        for (int n = a.length - 1; n > 0; n--) { int t = a[0]; a[0] = a[n]; a[n] = t; sift(a, 0, n); }
        return a[3] + a[a.length - 3];
    }
    public static void main(String[] args) { System.out.println(run()); }
}
