/** Binary insertion sort: binary search for the place (after equals), System.arraycopy to make room. */
public class BinaryInsertionSort {
    static <T extends Comparable<T>> T[] sort(T[] a) {
        for (int i = 1; i < a.length; i++) {
            T key = a[i];
            int lo = 0, hi = i;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (key.compareTo(a[mid]) < 0) hi = mid;
                else lo = mid + 1;
            }
            System.arraycopy(a, lo, a, lo + 1, i - lo);
            a[lo] = key;
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
