/**
 * Bozo sort, bounded: 20 million random pairs (a fixed-seed LCG), each swapped when out of order, then
 * insertion sort finishes. Far past get_score.sh's default 300 million bytecodes: the program of this
 * corpus that stops at the limit.
 */
public class BozoSortBounded {
    static final int TRIES = 20_000_000;

    static <T extends Comparable<T>> T[] sort(T[] a) {
        int n = a.length;
        long s = 42;
        for (int t = 0; t < TRIES; t++) {
            s = s * 6364136223846793005L + 1442695040888963407L;
            int i = (int) ((s >>> 33) % n);
            s = s * 6364136223846793005L + 1442695040888963407L;
            int j = (int) ((s >>> 33) % n);
            if (i > j) {
                int k = i;
                i = j;
                j = k;
            }
            if (a[i].compareTo(a[j]) > 0) {
                T x = a[i];
                a[i] = a[j];
                a[j] = x;
            }
        }
        for (int i = 1; i < n; i++) {
            T key = a[i];
            int j = i - 1;
            while (j >= 0 && a[j].compareTo(key) > 0) {
                a[j + 1] = a[j];
                j--;
            }
            a[j + 1] = key;
        }
        return a;
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
