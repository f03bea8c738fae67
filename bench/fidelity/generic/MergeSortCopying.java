import java.util.Arrays;

/** Merge sort that returns new arrays: both halves copied out (Arrays.copyOfRange), sorted, merged into a third. */
public class MergeSortCopying {
    static <T extends Comparable<T>> T[] sort(T[] a) {
        if (a.length <= 1) return a;
        int mid = a.length / 2;
        T[] left = sort(Arrays.copyOfRange(a, 0, mid));
        T[] right = sort(Arrays.copyOfRange(a, mid, a.length));
        return merge(left, right, Arrays.copyOf(a, a.length));
    }

    static <T extends Comparable<T>> T[] merge(T[] left, T[] right, T[] out) {
        int i = 0, j = 0, k = 0;
        while (i < left.length && j < right.length) {
            out[k++] = right[j].compareTo(left[i]) < 0 ? right[j++] : left[i++];
        }
        while (i < left.length) out[k++] = left[i++];
        while (j < right.length) out[k++] = right[j++];
        return out;
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
