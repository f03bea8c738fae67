import java.util.Comparator;

/** Selection sort: the minimum of the rest to the front, compared through Comparator.naturalOrder(). */
public class SelectionSort {
    static <T extends Comparable<T>> T[] sort(T[] a) {
        Comparator<T> order = Comparator.naturalOrder();
        for (int i = 0; i < a.length - 1; i++) {
            int min = i;
            for (int j = i + 1; j < a.length; j++) {
                if (order.compare(a[j], a[min]) < 0) min = j;
            }
            if (min != i) {
                T t = a[i];
                a[i] = a[min];
                a[min] = t;
            }
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
