/** Counting sort over the range min..max of the values. */
public class CountingSort {
    static void sort(int[] a) {
        if (a.length == 0) return;
        int min = a[0], max = a[0];
        for (int x : a) {
            if (x < min) min = x;
            if (x > max) max = x;
        }
        int[] count = new int[max - min + 1];
        for (int x : a) count[x - min]++;
        int k = 0;
        for (int v = 0; v < count.length; v++)
            for (int c = count[v]; c > 0; c--) a[k++] = v + min;
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
