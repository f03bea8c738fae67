/** Cycle sort: every element written straight to its final place (minimum writes, n^2 compares). */
public class CycleSort {
    static void sort(int[] a) {
        int n = a.length;
        for (int start = 0; start < n - 1; start++) {
            int item = a[start];
            int pos = place(a, start, item);
            if (pos == start) continue;
            while (item == a[pos]) pos++;
            int t = a[pos];
            a[pos] = item;
            item = t;
            while (pos != start) {
                pos = place(a, start, item);
                while (item == a[pos]) pos++;
                t = a[pos];
                a[pos] = item;
                item = t;
            }
        }
    }

    /** start plus the number of elements after start smaller than item. */
    static int place(int[] a, int start, int item) {
        int pos = start;
        for (int i = start + 1; i < a.length; i++)
            if (a[i] < item) pos++;
        return pos;
    }

    public static long run() {
        int[] a = data();
        sort(a);
        return checksum(a);
    }

    /** The input every program of this corpus sorts: 2000 ints in [0, 100000) from a fixed-seed LCG. */
    static int[] data() {
        int[] a = new int[2000];
        long s = 20261122;
        for (int i = 0; i < a.length; i++) {
            s = s * 6364136223846793005L + 1442695040888963407L;
            a[i] = (int) ((s >>> 33) % 100000);
        }
        return a;
    }

    /** Depends on every element and its position: equal for all correct sorts. */
    static long checksum(int[] a) {
        long h = a.length;
        for (int i = 0; i < a.length; i++) h = h * 31 + a[i];
        return h;
    }

    public static void main(String[] args) { System.out.println(run()); }
}
