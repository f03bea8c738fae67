import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/** Bucket sort by comparison: 63 splitters from a sorted sample of 64, each element binary-searched into one of 64 buckets, Collections.sort each. */
public class BucketSort {
    static <T extends Comparable<T>> T[] sort(T[] a) {
        int buckets = 64;
        if (a.length < buckets * 2) {
            Arrays.sort(a);
            return a;
        }
        T[] sample = Arrays.copyOf(a, buckets);
        for (int i = 0; i < buckets; i++) sample[i] = a[i * (a.length / buckets)];
        Arrays.sort(sample);
        List<List<T>> bucket = new ArrayList<>();
        for (int i = 0; i < buckets; i++) bucket.add(new ArrayList<>());
        for (T x : a) bucket.get(place(sample, x)).add(x);
        int k = 0;
        for (List<T> b : bucket) {
            Collections.sort(b);
            for (T x : b) a[k++] = x;
        }
        return a;
    }

    /** The number of splitters sample[1..] not greater than x: the bucket of x. */
    static <T extends Comparable<T>> int place(T[] sample, T x) {
        int lo = 1, hi = sample.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sample[mid].compareTo(x) <= 0) lo = mid + 1;
            else hi = mid;
        }
        return lo - 1;
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
