/* Workloads for bench/step_overhead.sh. Prints the measured method's wall time
 * in nanoseconds (taken outside the measured extent).
 *   loop N : arithmetic and array loads in one frame
 *   call N : tiny calls (recursion), many frames
 *   tail N : recursion whose second self-call precedes the return (2^(N+1)
 *            frames, half of them in tail position: the agent asks for their
 *            FramePop to count the caller's return HotSpot does not post)
 *   alloc N: array allocations of computed sizes */
public class StepBench {
    static long loop(int n) {
        int[] a = new int[64];
        long s = 0;
        for (int i = 0; i < n; i++) {
            a[i & 63] += i;
            s += a[(i * 7) & 63] ^ i;
        }
        return s;
    }

    static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

    static long call(int n) { return fib(n); }

    static void hanoi(int n) {
        if (n == 0) return;
        hanoi(n - 1);
        hanoi(n - 1);
    }

    static long tail(int n) { hanoi(n); return n; }

    static long alloc(int n) {
        long s = 0;
        for (int i = 0; i < n; i++) {
            int[] x = new int[(i & 15) + 1];
            s += x.length;
        }
        return s;
    }

    public static void main(String[] args) {
        int n = Integer.parseInt(args[1]);
        long t0 = System.nanoTime();
        long r;
        switch (args[0]) {
            case "loop": r = loop(n); break;
            case "call": r = call(n); break;
            case "tail": r = tail(n); break;
            default: r = alloc(n); break;
        }
        long t1 = System.nanoTime();
        System.out.println((t1 - t0) + " " + r);
    }
}
