import java.util.ArrayList;
import java.util.LinkedList;
import java.util.List;

/** Strand sort: increasing strands pulled out of a linked list of what is left, each merged into the result. */
public class StrandSort {
    static <T extends Comparable<T>> T[] sort(T[] a) {
        LinkedList<T> rest = new LinkedList<>(List.of(a));
        List<T> result = new ArrayList<>();
        while (!rest.isEmpty()) {
            List<T> strand = new ArrayList<>();
            strand.add(rest.removeFirst());
            var it = rest.iterator();
            while (it.hasNext()) {
                T x = it.next();
                if (x.compareTo(strand.get(strand.size() - 1)) >= 0) {
                    strand.add(x);
                    it.remove();
                }
            }
            result = merge(result, strand);
        }
        return result.toArray(a);
    }

    static <T extends Comparable<T>> List<T> merge(List<T> x, List<T> y) {
        List<T> out = new ArrayList<>(x.size() + y.size());
        int i = 0, j = 0;
        while (i < x.size() && j < y.size()) out.add(y.get(j).compareTo(x.get(i)) < 0 ? y.get(j++) : x.get(i++));
        while (i < x.size()) out.add(x.get(i++));
        while (j < y.size()) out.add(y.get(j++));
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
