/** LSD radix sort of non-negative ints, one byte a pass, as many passes as the maximum needs. */
public class RadixSortLsd {
    static void sort(int[] a) {
        int n = a.length, max = 0;
        for (int x : a) max = Math.max(max, x);
        int[] src = a, dst = new int[n];
        for (int shift = 0; shift < 32 && (max >>> shift) != 0; shift += 8) {
            int[] count = new int[257];
            for (int i = 0; i < n; i++) count[((src[i] >>> shift) & 0xff) + 1]++;
            for (int d = 0; d < 256; d++) count[d + 1] += count[d];
            for (int i = 0; i < n; i++) dst[count[(src[i] >>> shift) & 0xff]++] = src[i];
            int[] t = src;
            src = dst;
            dst = t;
        }
        if (src != a) System.arraycopy(src, 0, a, 0, n);
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
