import java.util.Arrays;
import java.util.Comparator;

/** The library's sort of objects: Arrays.sort(a, Comparator.naturalOrder()) (TimSort with a comparator). */
public class ArraysSortComparator {
    static <T extends Comparable<T>> T[] sort(T[] a) {
        Arrays.sort(a, Comparator.naturalOrder());
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
