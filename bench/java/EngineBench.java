import java.util.ArrayList;
import java.util.HashMap;

/* Workloads for bench/fast_engine.sh: the two counting engines side by side.
 *   java EngineBench KIND N
 * main prepares the input, then calls the measured method EngineBench.KIND
 * once and prints its result (so the JIT cannot drop the work):
 *   loops:       nested arithmetic loops, N outer iterations of 100
 *   calls:       N small static and virtual calls
 *   allocs:      N small objects and N int arrays of 8, kept in a ring
 *   collections: N Integers through an ArrayList and a HashMap
 *   mergeSort:   a generic top-down merge sort (one auxiliary array, the way
 *                course exercise collections write it) of N Integers drawn
 *                from a fixed linear congruential generator */
public class EngineBench {
    interface Shape {
        int area();
    }

    static final class Square implements Shape {
        final int side;
        Square(int side) { this.side = side; }
        public int area() { return side * side; }
    }

    static final class Rect implements Shape {
        final int w, h;
        Rect(int w, int h) { this.w = w; this.h = h; }
        public int area() { return w * h; }
    }

    static long loops(int n) {
        long s = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < 100; j++) {
                s += (i ^ j) & 7;
            }
        }
        return s;
    }

    static int twice(int x) { return x + x; }

    static long calls(int n) {
        Shape[] shapes = { new Square(3), new Rect(2, 5) };
        long s = 0;
        for (int i = 0; i < n; i++) {
            s += twice(i & 15) + shapes[i & 1].area();
        }
        return s;
    }

    static long allocs(int n) {
        Object[] ring = new Object[64];
        long s = 0;
        for (int i = 0; i < n; i++) {
            int[] a = new int[8];
            a[i & 7] = i;
            ring[i & 63] = new Square(i & 31);
            s += a[i & 7] + ((Square) ring[i & 63]).side;
        }
        return s;
    }

    static long collections(int n) {
        ArrayList<Integer> list = new ArrayList<>();
        HashMap<Integer, Integer> counts = new HashMap<>();
        for (int i = 0; i < n; i++) {
            list.add(i % 1000);
        }
        for (Integer v : list) {
            counts.merge(v, 1, Integer::sum);
        }
        long s = 0;
        for (int i = 0; i < 1000; i++) {
            s += counts.get(i);
        }
        return s;
    }

    static final class MergeSort {
        private Comparable[] aux;

        <T extends Comparable<T>> T[] sort(T[] array) {
            aux = new Comparable[array.length];
            split(array, 0, array.length - 1);
            return array;
        }

        private <T extends Comparable<T>> void split(T[] array, int lo, int hi) {
            if (lo >= hi) {
                return;
            }
            int mid = (lo + hi) >>> 1;
            split(array, lo, mid);
            split(array, mid + 1, hi);
            merge(array, lo, mid, hi);
        }

        @SuppressWarnings("unchecked")
        private <T extends Comparable<T>> void merge(T[] array, int lo, int mid, int hi) {
            System.arraycopy(array, lo, aux, lo, hi - lo + 1);
            int left = lo, right = mid + 1;
            for (int k = lo; k <= hi; k++) {
                if (left > mid) {
                    array[k] = (T) aux[right++];
                } else if (right > hi) {
                    array[k] = (T) aux[left++];
                } else if (((T) aux[right]).compareTo((T) aux[left]) < 0) {
                    array[k] = (T) aux[right++];
                } else {
                    array[k] = (T) aux[left++];
                }
            }
        }
    }

    static long mergeSort(Integer[] data) {
        new MergeSort().sort(data);
        return data[0] + (long) data[data.length - 1];
    }

    public static void main(String[] args) {
        String kind = args[0];
        int n = Integer.parseInt(args[1]);
        long r;
        switch (kind) {
            case "loops": r = loops(n); break;
            case "calls": r = calls(n); break;
            case "allocs": r = allocs(n); break;
            case "collections": r = collections(n); break;
            case "mergeSort": {
                Integer[] data = new Integer[n];
                int x = 12345;
                for (int i = 0; i < n; i++) {
                    x = x * 1103515245 + 12345;
                    data[i] = (x >>> 8) % 1000000;
                }
                r = mergeSort(data);
                break;
            }
            default: throw new IllegalArgumentException("unknown workload " + kind);
        }
        System.out.println(r);
    }
}
