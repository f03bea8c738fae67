/** Odd-even transposition sort: odd pairs, then even pairs, until neither phase swaps. */
public class OddEvenSort {
    static <T extends Comparable<T>> T[] sort(T[] a) {
        boolean sorted = false;
        while (!sorted) {
            sorted = true;
            for (int i = 1; i + 1 < a.length; i += 2) {
                if (less(a[i + 1], a[i])) {
                    swap(a, i, i + 1);
                    sorted = false;
                }
            }
            for (int i = 0; i + 1 < a.length; i += 2) {
                if (less(a[i + 1], a[i])) {
                    swap(a, i, i + 1);
                    sorted = false;
                }
            }
        }
        return a;
    }

    static <T extends Comparable<T>> boolean less(T v, T w) {
        return v.compareTo(w) < 0;
    }

    static <T> void swap(T[] a, int i, int j) {
        T t = a[i];
        a[i] = a[j];
        a[j] = t;
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
