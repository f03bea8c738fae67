/** Introsort: median-of-three quicksort, heap sort past a depth limit, one insertion sort pass at the end. */
public class IntroSort {
    static void sort(int[] a) {
        int depth = 2 * (31 - Integer.numberOfLeadingZeros(Math.max(a.length, 1)));
        intro(a, 0, a.length - 1, depth);
        for (int i = 1; i < a.length; i++) {
            int x = a[i], j = i - 1;
            while (j >= 0 && a[j] > x) {
                a[j + 1] = a[j];
                j--;
            }
            a[j + 1] = x;
        }
    }

    static void intro(int[] a, int lo, int hi, int depth) {
        while (hi - lo > 16) {
            if (depth-- == 0) {
                heapSort(a, lo, hi);
                return;
            }
            int mid = (lo + hi) >>> 1;
            if (a[mid] < a[lo]) swap(a, mid, lo);
            if (a[hi] < a[lo]) swap(a, hi, lo);
            if (a[hi] < a[mid]) swap(a, hi, mid);
            int p = a[mid], i = lo - 1, j = hi + 1;
            while (true) {
                do i++; while (a[i] < p);
                do j--; while (a[j] > p);
                if (i >= j) break;
                swap(a, i, j);
            }
            intro(a, j + 1, hi, depth);
            hi = j;
        }
    }

    static void heapSort(int[] a, int lo, int hi) {
        int n = hi - lo + 1;
        for (int i = n / 2 - 1; i >= 0; i--) siftDown(a, lo, i, n);
        for (int end = n - 1; end > 0; end--) {
            swap(a, lo, lo + end);
            siftDown(a, lo, 0, end);
        }
    }

    static void siftDown(int[] a, int base, int i, int n) {
        int x = a[base + i];
        while (2 * i + 1 < n) {
            int c = 2 * i + 1;
            if (c + 1 < n && a[base + c + 1] > a[base + c]) c++;
            if (a[base + c] <= x) break;
            a[base + i] = a[base + c];
            i = c;
        }
        a[base + i] = x;
    }

    static void swap(int[] a, int i, int j) {
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
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
