import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/** Patience sort: piles dealt by binary search on their tops, then merged through a PriorityQueue ordered by a lambda on each pile's last card. */
public class PatienceSort {
    static <T extends Comparable<T>> T[] sort(T[] a) {
        List<List<T>> piles = new ArrayList<>();
        for (T x : a) {
            int lo = 0, hi = piles.size();
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                List<T> p = piles.get(mid);
                if (p.get(p.size() - 1).compareTo(x) >= 0) hi = mid;
                else lo = mid + 1;
            }
            if (lo == piles.size()) piles.add(new ArrayList<>());
            piles.get(lo).add(x);
        }
        PriorityQueue<List<T>> heap = new PriorityQueue<>((p, q) -> p.get(p.size() - 1).compareTo(q.get(q.size() - 1)));
        heap.addAll(piles);
        for (int k = 0; k < a.length; k++) {
            List<T> p = heap.poll();
            a[k] = p.remove(p.size() - 1);
            if (!p.isEmpty()) heap.add(p);
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
