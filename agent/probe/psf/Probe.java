package psf;

/*
 * The fast counting engine's probe (agent/fast.c, docs/fast-engine.md).
 * The agent defines this class in the boot loader at VMInit, makes every
 * named module read its module, and rewrites every other class so that each
 * basic block starts with `invokestatic psf/Probe.block(I)V` and the block's
 * id. The JIT inlines block() into compiled code like any small method.
 *
 * A probe counts only on a thread the agent has switched on (where the step
 * engine would enable single-stepping): `counting` holds those threads'
 * counters, and an empty array makes every probe return at once. It touches
 * nothing but this class, arrays and Thread.currentThread() (a native
 * intrinsic without bytecode), so it never runs instrumented code, which
 * would count the probe and call it again. Instances are made by the agent
 * (JNI AllocObject: no constructor runs), one per counted thread, and only
 * that thread writes their counters. This class itself is never rewritten.
 */
public final class Probe {
    private Probe() {}

    /** Counters of the threads now counting; the agent replaces the whole array (copy on write). */
    static volatile Probe[] counting = new Probe[0];

    /** Bytecodes in each block, by id; grown through lengths0() when an id is past its end. */
    static int[] lengths = new int[0];

    /** The thread these counters belong to (set by the agent). */
    Thread thread;
    /** Hits per block id (the agent sizes it; grown here when a newer class's id is past its end). */
    long[] hits;
    /** Bytecodes counted on this thread since the agent last set it to 0. */
    long n;
    /** Frames of the measured method on this thread inside its extent; 0 outside one (the agent sets it). */
    int depth;

    /** A block starts: count it on the current thread if that thread is counting. */
    public static void block(int id) {
        Probe[] c = counting;
        if (c.length == 0)
            return;
        Thread t = Thread.currentThread();
        for (int i = 0; i < c.length; i++) {
            Probe p = c[i];
            if (p.thread == t) {
                p.hit(id);
                return;
            }
        }
    }

    /* The counters of the current thread, or null when it is not counting. */
    private static Probe current() {
        Probe[] c = counting;
        if (c.length == 0)
            return null;
        Thread t = Thread.currentThread();
        for (int i = 0; i < c.length; i++)
            if (c[i].thread == t)
                return c[i];
        return null;
    }

    /**
     * The measured method is entered (its first instruction; only it has
     * this probe, with its block 0's id): on a thread that is not counting
     * the agent opens an extent (where the step engine's breakpoint would),
     * inside an extent it is a recursive call.
     */
    public static void enter(int id) {
        Probe p = current();
        if (p == null)
            begin0();
        else if (p.depth > 0)
            p.depth++;
    }

    /** The measured method returns (before each of its return instructions): the outermost frame's return ends the extent. */
    public static void exit(int id) {
        Probe p = current();
        if (p != null && p.depth > 0 && --p.depth == 0)
            end0();
    }

    private void hit(int id) {
        long[] h = hits;
        int[] len = lengths;
        if (id >= h.length || id >= len.length) {
            if (!grow(id))
                return; /* an id the agent never handed out: it has reported the failure */
            h = hits;
            len = lengths;
        }
        h[id]++;
        n += len[id];
    }

    /* Make hits and lengths cover id; false when the agent knows no such id. */
    private boolean grow(int id) {
        if (id >= lengths.length)
            lengths = lengths0(id);
        if (id >= lengths.length)
            return false;
        long[] h = hits;
        if (id >= h.length) {
            int cap = h.length * 2;
            if (cap <= id)
                cap = lengths.length;
            long[] g = new long[cap];
            for (int i = 0; i < h.length; i++)
                g[i] = h[i];
            hits = g;
        }
        return true;
    }

    /** The agent's block lengths, all ids handed out so far (id is the one asked for: reported if unknown). */
    private static native int[] lengths0(int id);

    /** The agent opens an extent on this thread if the caller is the measured method (and sets depth to 1). */
    private static native void begin0();

    /** The agent closes this thread's extent: its outermost frame is returning. */
    private static native void end0();
}
