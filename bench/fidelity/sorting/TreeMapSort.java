import java.util.Map;
import java.util.TreeMap;

/** A TreeMap from value to count, read back in key order. */
public class TreeMapSort {
    static void sort(int[] a) {
        TreeMap<Integer, Integer> counts = new TreeMap<>();
        for (int x : a) {
            Integer c = counts.get(x);
            counts.put(x, c == null ? 1 : c + 1);
        }
        int k = 0;
        for (Map.Entry<Integer, Integer> e : counts.entrySet()) {
            int v = e.getKey();
            for (int c = e.getValue(); c > 0; c--) a[k++] = v;
        }
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
