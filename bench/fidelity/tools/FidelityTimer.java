import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;

/**
 * Times CLASS.run() inside one JVM: System.nanoTime around each call, JVM
 * start and class loading excluded (one untimed warm-up call first), the
 * minimum of REPS calls or of as many calls as fit in SECONDS, whichever
 * is more. Prints "min_ns batches first_ns": first_ns is the warm-up call,
 * the program's first run in this JVM (with the JIT: interpreted at first,
 * compiled while it runs, as a program that runs once).
 *
 * CLOCK "wall" (the default) times with System.nanoTime; "cpu" with the
 * calling thread's CPU time (ThreadMXBean), which leaves out the time the
 * thread waited for a core: on a machine shared with other busy processes
 * no window of wall time may be free of them, and the minimum over calls
 * then measures the contention rather than the program. The budget
 * (SECONDS) is always wall time.
 *
 * A call shorter than the clock can tell (a JIT-compiled call of a few
 * microseconds read with a thread CPU clock that advances in coarse steps)
 * would time as 0. Calls are therefore timed in batches: a batch that took
 * less than MIN_BATCH_NS of wall time or read 0 on the clock is not kept,
 * and the batch doubles; a kept batch counts as its time divided by its
 * calls. Calls of a millisecond or more (-Xint) stay batches of one.
 *
 * Usage: java [flags] -cp DIR FidelityTimer CLASS REPS SECONDS [wall|cpu]
 */
public final class FidelityTimer {
    private FidelityTimer() { }

    static long sink;
    /** The shortest batch kept (wall time); a clock that steps coarser reads 0 and the batch grows. */
    static final long MIN_BATCH_NS = 200_000;
    static final int MAX_BATCH = 1 << 20;

    public static void main(String[] args) throws Exception {
        Method run = Class.forName(args[0]).getMethod("run");
        int reps = Integer.parseInt(args[1]);
        long budget = (long) (Double.parseDouble(args[2]) * 1e9);
        boolean cpu = args.length > 3 && args[3].equals("cpu");
        if (args.length > 3 && !cpu && !args[3].equals("wall"))
            throw new IllegalArgumentException("CLOCK must be wall or cpu, not " + args[3]);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long f0 = cpu ? threads.getCurrentThreadCpuTime() : System.nanoTime();
        sink ^= (Long) run.invoke(null);
        long first = (cpu ? threads.getCurrentThreadCpuTime() : System.nanoTime()) - f0;
        long best = Long.MAX_VALUE, start = System.nanoTime();
        int calls = 0, batch = 1;
        while (calls < reps || System.nanoTime() - start < budget || best == Long.MAX_VALUE) {
            long w0 = System.nanoTime(), t0 = cpu ? threads.getCurrentThreadCpuTime() : w0;
            for (int i = 0; i < batch; i++)
                sink ^= (Long) run.invoke(null);
            long w1 = System.nanoTime(), t1 = cpu ? threads.getCurrentThreadCpuTime() : w1;
            if ((w1 - w0 < MIN_BATCH_NS || t1 == t0) && batch < MAX_BATCH) {
                batch *= 2;
                continue;
            }
            best = Math.min(best, (t1 - t0) / batch);
            calls++;
            if (calls >= 10 * reps && System.nanoTime() - start >= budget)
                break;
        }
        System.out.println(best + " " + calls + " " + first + (sink == 42 ? " " : ""));
    }
}
