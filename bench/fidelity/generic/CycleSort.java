/** Cycle sort: every element written once, to the place counted for it (after its equals). */
public class CycleSort {
    static <T extends Comparable<T>> T[] sort(T[] a) {
        int n = a.length;
        for (int start = 0; start < n - 1; start++) {
            T item = a[start];
            int pos = start;
            for (int i = start + 1; i < n; i++) if (a[i].compareTo(item) < 0) pos++;
            if (pos == start) continue;
            while (item.compareTo(a[pos]) == 0) pos++;
            T t = a[pos];
            a[pos] = item;
            item = t;
            while (pos != start) {
                pos = start;
                for (int i = start + 1; i < n; i++) if (a[i].compareTo(item) < 0) pos++;
                while (item.compareTo(a[pos]) == 0) pos++;
                t = a[pos];
                a[pos] = item;
                item = t;
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
