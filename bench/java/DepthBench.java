/* Workloads for bench/recursion_depth.sh: the same bytecodes at every depth.
 *   java DepthBench KIND DEPTH CALLS   (DEPTH must divide CALLS)
 * runs ITER = CALLS / 10 iterations; the first CALLS / DEPTH of them descend
 * DEPTH frames, the others descend none, so every depth that divides CALLS
 * executes exactly the same bytecodes (CALLS frames in all) with only the
 * depth of the stack different. The choice is arithmetic, not a branch: both
 * kinds of iteration run the same bytecodes apart from the recursion.
 *   plain: rec(d) returns rec(d - 1) + 1 (the return follows an add)
 *   tail:  down(d) calls down(d - 1) right before its return, a chain of
 *          returns HotSpot does not post (the agent reads the callers' frames)
 * Prints the method's wall time in nanoseconds (taken outside the extent). */
public class DepthBench {
    static int rec(int d) {
        if (d == 0) return 0;
        return rec(d - 1) + 1;
    }

    static void down(int d) {
        if (d == 0) return;
        down(d - 1);
    }

    static long plain(int depth, int calls) {
        int iters = calls / 10, deep = calls / depth;
        long s = 0;
        for (int i = 0; i < iters; i++) {
            int d = depth * (((deep - 1 - i) >>> 31) ^ 1); /* depth while i < deep, else 0 */
            s += rec(d);
        }
        return s;
    }

    static long tail(int depth, int calls) {
        int iters = calls / 10, deep = calls / depth;
        long s = 0;
        for (int i = 0; i < iters; i++) {
            int d = depth * (((deep - 1 - i) >>> 31) ^ 1);
            down(d);
            s += d;
        }
        return s;
    }

    public static void main(String[] args) {
        int depth = Integer.parseInt(args[1]), calls = Integer.parseInt(args[2]);
        if (depth < 10 || calls % depth != 0)
            throw new IllegalArgumentException("DEPTH must be at least 10 and divide CALLS");
        long t0 = System.nanoTime();
        long r = args[0].equals("tail") ? tail(depth, calls) : plain(depth, calls);
        long t1 = System.nanoTime();
        System.out.println((t1 - t0) + " " + r);
    }
}
