/** Gnome sort: one index, forward while in order, back one after every swap. */
public class GnomeSort {
    static <T extends Comparable<T>> T[] sort(T[] a) {
        int i = 1;
        while (i < a.length) {
            if (i == 0 || a[i - 1].compareTo(a[i]) <= 0) {
                i++;
            } else {
                T t = a[i];
                a[i] = a[i - 1];
                a[i - 1] = t;
                i--;
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
