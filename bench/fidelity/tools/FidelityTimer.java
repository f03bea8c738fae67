import java.lang.reflect.Method;

/**
 * Times CLASS.run() inside one JVM: System.nanoTime around each call, JVM
 * start and class loading excluded (one untimed warm-up call first), the
 * minimum of REPS calls or of as many calls as fit in SECONDS, whichever
 * is more. Prints "min_ns calls first_ns": first_ns is the warm-up call,
 * the program's first run in this JVM (with the JIT: interpreted at first,
 * compiled while it runs, as a program that runs once).
 *
 * Usage: java [flags] -cp DIR FidelityTimer CLASS REPS SECONDS
 */
public final class FidelityTimer {
    private FidelityTimer() { }

    static long sink;

    public static void main(String[] args) throws Exception {
        Method run = Class.forName(args[0]).getMethod("run");
        int reps = Integer.parseInt(args[1]);
        long budget = (long) (Double.parseDouble(args[2]) * 1e9);
        long f0 = System.nanoTime();
        sink ^= (Long) run.invoke(null);
        long first = System.nanoTime() - f0;
        long best = Long.MAX_VALUE, start = System.nanoTime();
        int calls = 0;
        while (calls < reps || System.nanoTime() - start < budget) {
            long t0 = System.nanoTime();
            Object r = run.invoke(null);
            long t1 = System.nanoTime();
            sink ^= (Long) r;
            best = Math.min(best, t1 - t0);
            calls++;
            if (calls >= 10 * reps && System.nanoTime() - start >= budget)
                break;
        }
        System.out.println(best + " " + calls + " " + first + (sink == 42 ? " " : ""));
    }
}
