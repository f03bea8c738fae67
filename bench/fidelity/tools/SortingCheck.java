import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * Checks the one-task corpus bench/fidelity/sorting: every class sorts the
 * same input, sorts it correctly, and run() returns the same checksum.
 *
 * For every CLASS: data() must return the same array as the first class's;
 * sort(data()) must equal Arrays.sort of a copy (every element kept, in
 * order); run() must return the same value twice and the same value as every
 * other class. Prints one line a class and exits 1 on the first failure.
 *
 * Usage: java -cp CLASSES:TOOLS SortingCheck CLASS...
 */
public final class SortingCheck {
    private SortingCheck() { }

    static int[] data(Class<?> c) throws Exception {
        Method m = c.getDeclaredMethod("data");
        m.setAccessible(true);
        return (int[]) m.invoke(null);
    }

    public static void main(String[] args) throws Exception {
        int[] input = null;
        Long expected = null;
        String first = null;
        for (String name : args) {
            Class<?> c = Class.forName(name);
            int[] a = data(c);
            if (input == null) {
                input = a.clone();
                first = name;
            } else if (!Arrays.equals(input, a)) {
                fail(name + ": data() differs from " + first + "'s");
            }
            int[] want = a.clone();
            Arrays.sort(want);
            Method sort = c.getDeclaredMethod("sort", int[].class);
            sort.setAccessible(true);
            sort.invoke(null, (Object) a);
            if (!Arrays.equals(want, a)) {
                int i = 0;
                while (i < a.length && a[i] == want[i]) i++;
                fail(name + ": not sorted (first difference at index " + i + " of " + a.length + ")");
            }
            Method run = c.getMethod("run");
            long r1 = (Long) run.invoke(null), r2 = (Long) run.invoke(null);
            if (r1 != r2) fail(name + ": run() returned " + r1 + " and then " + r2);
            if (expected == null) expected = r1;
            else if (r1 != expected) fail(name + ": run() returned " + r1 + ", " + first + " " + expected);
            System.out.printf("ok  %-20s n=%d  run() = %d%n", name, a.length, r1);
        }
        System.out.println(args.length + " classes: the same input, sorted, the same checksum");
    }

    static void fail(String msg) {
        System.out.println("FAIL " + msg);
        System.exit(1);
    }
}
