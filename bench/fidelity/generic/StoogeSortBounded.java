/** Stooge sort, bounded: the first two thirds, the last two thirds, the first two thirds again, down to parts of 128 or fewer, which insertion sort finishes. */
public class StoogeSortBounded {
    static final int CUTOFF = 128;

    static <T extends Comparable<T>> T[] sort(T[] a) {
        stooge(a, 0, a.length - 1);
        return a;
    }

    static <T extends Comparable<T>> void stooge(T[] a, int lo, int hi) {
        int n = hi - lo + 1;
        if (n <= CUTOFF) {
            insertion(a, lo, hi);
            return;
        }
        int third = n / 3;
        stooge(a, lo, hi - third);
        stooge(a, lo + third, hi);
        stooge(a, lo, hi - third);
    }

    static <T extends Comparable<T>> void insertion(T[] a, int lo, int hi) {
        for (int i = lo + 1; i <= hi; i++) {
            T key = a[i];
            int j = i - 1;
            while (j >= lo && a[j].compareTo(key) > 0) {
                a[j + 1] = a[j];
                j--;
            }
            a[j + 1] = key;
        }
    }

    public static long run() {
        return checksum(sort(data()));
    }

    /** The input every program of this corpus sorts: the sorting corpus' 2000 numbers in [0, 100000), boxed. */
    static Integer[] data() {
        Integer[] a = new Integer[2000];
        long s = 20261122;
        for (int i = 0; i < a.length; i++) {
            s = s * 6364136223846793005L + 1442695040888963407L;
            a[i] = (int) ((s >>> 33) % 100000);
        }
        return a;
    }

    /** Depends on every element and its position: equal for all correct sorts. */
    static long checksum(Integer[] a) {
        long h = a.length;
        for (int i = 0; i < a.length; i++) h = h * 31 + a[i];
        return h;
    }

    public static void main(String[] args) { System.out.println(run()); }
}
