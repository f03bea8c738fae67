import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * What every one-task corpus checker shares (StringsCheck, WordCountCheck,
 * ShortestPathCheck, EditDistanceCheck): calling a program's solution by
 * reflection, comparing its answer with the checker's own reference answer,
 * and the rule that run() returns the same value twice and in every program.
 */
final class CorpusCheck {
    private CorpusCheck() { }

    private static Long expected;
    private static String first;

    /** Calls the static method `name` of c (any access) with args. */
    static Object call(Class<?> c, String name, Class<?>[] types, Object... args) throws Exception {
        Method m = c.getDeclaredMethod(name, types);
        m.setAccessible(true);
        try {
            return m.invoke(null, args);
        } catch (java.lang.reflect.InvocationTargetException e) {
            fail(c.getName() + "." + name + " threw " + e.getCause());
            return null;
        }
    }

    /** Fails unless got equals want (arrays compared deeply). */
    static void same(Class<?> c, String what, Object got, Object want) {
        if (!Arrays.deepEquals(new Object[] {got}, new Object[] {want}))
            fail(c.getName() + ": " + what + ": got " + Arrays.deepToString(new Object[] {got}) + ", want "
                 + Arrays.deepToString(new Object[] {want}));
    }

    /** run() twice: the same value, and the same as every class checked before. Returns it. */
    static long runTwice(Class<?> c) throws Exception {
        Method run = c.getMethod("run");
        long r1 = (Long) run.invoke(null), r2 = (Long) run.invoke(null);
        if (r1 != r2) fail(c.getName() + ": run() returned " + r1 + " and then " + r2);
        if (expected == null) {
            expected = r1;
            first = c.getName();
        } else if (r1 != expected) {
            fail(c.getName() + ": run() returned " + r1 + ", " + first + " " + expected);
        }
        return r1;
    }

    static void fail(String msg) {
        System.out.println("FAIL " + msg);
        System.exit(1);
    }
}
