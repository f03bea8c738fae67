import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Objects;

/**
 * Checks a one-task sorting corpus: every class sorts the same input, sorts
 * it correctly, and run() returns the same checksum.
 *
 * Two kinds of program: those of bench/fidelity/sorting, with `int[] data()`
 * and `void sort(int[])` sorting in place, and those of bench/fidelity/generic,
 * with `Integer[] data()` and `<T extends Comparable<T>> T[] sort(T[])`
 * (erased: `Comparable[] sort(Comparable[])`), whose result is the array it
 * returns. For every CLASS: data() must return the same array as the first
 * class's; sort(data()) must equal Arrays.sort of a copy (every element kept,
 * in order); run() must return the same value twice and the same value as
 * every other class. Prints one line a class and exits 1 on the first failure.
 *
 * Usage: java -cp CLASSES:TOOLS SortingCheck CLASS...
 */
public final class SortingCheck {
    private SortingCheck() { }

    static Object data(Class<?> c) throws Exception {
        Method m = c.getDeclaredMethod("data");
        m.setAccessible(true);
        Object a = m.invoke(null);
        if (!(a instanceof int[]) && !(a instanceof Integer[]))
            fail(c.getName() + ": data() returns " + (a == null ? "null" : a.getClass().getSimpleName()) + ", not int[] or Integer[]");
        return a;
    }

    /** A sorted copy of a (int[] or Integer[]). */
    static Object sortedCopy(Object a) {
        if (a instanceof int[]) {
            int[] w = ((int[]) a).clone();
            Arrays.sort(w);
            return w;
        }
        Integer[] w = ((Integer[]) a).clone();
        Arrays.sort(w);
        return w;
    }

    /** The class's sort applied to a: a itself (int[], sorted in place) or the array sort returned. */
    static Object sort(Class<?> c, Object a) throws Exception {
        if (a instanceof int[]) {
            Method sort = c.getDeclaredMethod("sort", int[].class);
            sort.setAccessible(true);
            sort.invoke(null, a);
            return a;
        }
        Method sort = c.getDeclaredMethod("sort", Comparable[].class);
        sort.setAccessible(true);
        Object r = sort.invoke(null, a);
        if (r == null) fail(c.getName() + ": sort returned null");
        if (!(r instanceof Integer[])) fail(c.getName() + ": sort returned " + r.getClass().getSimpleName() + ", not Integer[]");
        return r;
    }

    public static void main(String[] args) throws Exception {
        Object input = null;
        Long expected = null;
        String first = null;
        for (String name : args) {
            Class<?> c = Class.forName(name);
            Object a = data(c);
            if (input == null) {
                input = a instanceof int[] ? ((int[]) a).clone() : ((Integer[]) a).clone();
                first = name;
            } else if (!Objects.deepEquals(input, a)) {
                fail(name + ": data() differs from " + first + "'s");
            }
            int n = Array.getLength(a);
            Object want = sortedCopy(a);
            Object got = sort(c, a);
            if (!Objects.deepEquals(want, got)) {
                int m = Array.getLength(got);
                if (m != n) fail(name + ": not sorted (" + m + " elements returned of " + n + ")");
                int i = 0;
                while (i < n && Objects.equals(Array.get(got, i), Array.get(want, i))) i++;
                fail(name + ": not sorted (first difference at index " + i + " of " + n + ")");
            }
            Method run = c.getMethod("run");
            long r1 = (Long) run.invoke(null), r2 = (Long) run.invoke(null);
            if (r1 != r2) fail(name + ": run() returned " + r1 + " and then " + r2);
            if (expected == null) expected = r1;
            else if (r1 != expected) fail(name + ": run() returned " + r1 + ", " + first + " " + expected);
            System.out.printf("ok  %-20s n=%d  run() = %d%n", name, n, r1);
        }
        System.out.println(args.length + " classes: the same input, sorted, the same checksum");
    }

    static void fail(String msg) {
        System.out.println("FAIL " + msg);
        System.exit(1);
    }
}
