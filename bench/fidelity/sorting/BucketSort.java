import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Bucket sort: values spread over n/4 ArrayList buckets by range, each bucket sorted with Collections.sort. */
public class BucketSort {
    static void sort(int[] a) {
        if (a.length == 0) return;
        int min = a[0], max = a[0];
        for (int x : a) {
            min = Math.min(min, x);
            max = Math.max(max, x);
        }
        int nb = Math.max(1, a.length / 4);
        long range = (long) max - min + 1;
        List<List<Integer>> buckets = new ArrayList<>(nb);
        for (int b = 0; b < nb; b++) buckets.add(new ArrayList<>());
        for (int x : a) buckets.get((int) ((x - min) * (long) nb / range)).add(x);
        int k = 0;
        for (List<Integer> bucket : buckets) {
            Collections.sort(bucket);
            for (int x : bucket) a[k++] = x;
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
