/** Top-down merge sort of 40000 ints, allocating its temporary arrays. */
public class SortMerge {
    static int[] sort(int[] a) {
        if (a.length < 2) return a;
        int mid = a.length / 2;
        int[] l = new int[mid], r = new int[a.length - mid];
        System.arraycopy(a, 0, l, 0, mid);
        System.arraycopy(a, mid, r, 0, r.length);
        l = sort(l);
        r = sort(r);
        int i = 0, j = 0, k = 0;
        while (i < l.length && j < r.length) a[k++] = l[i] <= r[j] ? l[i++] : r[j++];
        while (i < l.length) a[k++] = l[i++];
        while (j < r.length) a[k++] = r[j++];
        return a;
    }
    public static long run() {
        int[] a = new int[40000];
        long seed = 11;
        for (int i = 0; i < a.length; i++) { seed = seed * 6364136223846793005L + 1442695040888963407L; a[i] = (int) (seed >>> 33); }
        a = sort(a);
        return a[1] + a[a.length - 2];
    }
    public static void main(String[] args) { System.out.println(run()); }
}
