/**
 * Timing harness of psf-calibrate: runs without the counting agent.
 *
 * Usage: java -Dpsf.rdtsc=LIB -cp HARNESS:KERNELS Time TARGET MINREPS MAXREPS STABLE NAME/PERIOD...
 *
 * For each kernel: choose two iteration counts n1 < n2 (multiples of the
 * kernel's period, after which its body repeats exactly) so
 * that one call with n2 takes about TARGET ticks; then time calls with n1
 * and n2 alternately, keeping each minimum, until neither minimum improved
 * by more than 0.2% over STABLE consecutive rounds (at least MINREPS rounds,
 * at most MAXREPS). One line per kernel on stdout:
 *   K name n1 n2 min1 min2 rounds
 * The difference min2 - min1 holds (n2 - n1) iterations of the body and
 * nothing else: the timer reads, the call and the setup cancel.
 */
public final class Time {
    private Time() { }

    static long sink;

    static long once(PsfKernels k, int id, int n) {
        long t0 = Rdtsc.ticks();
        sink ^= k.call(id, n);
        long t1 = Rdtsc.ticks();
        return t1 - t0;
    }

    static long best(PsfKernels k, int id, int n, int reps) {
        long m = Long.MAX_VALUE;
        for (int r = 0; r < reps; r++)
            m = Math.min(m, once(k, id, n));
        return m;
    }

    static int roundTo(double v, int period) {
        long r = Math.round(v / period) * period;
        return (int) Math.max(period, Math.min(r, 1L << 26));
    }

    public static void main(String[] args) throws Exception {
        long target = Long.parseLong(args[0]);
        int minReps = Integer.parseInt(args[1]);
        int maxReps = Integer.parseInt(args[2]);
        int stable = Integer.parseInt(args[3]);
        PsfKernels k = (PsfKernels) Class.forName("Kernels").getDeclaredConstructor().newInstance();

        System.out.println("JDK " + System.getProperty("java.vm.version"));
        long timer = Long.MAX_VALUE;
        for (int r = 0; r < 1000; r++) {
            long a = Rdtsc.ticks();
            long b = Rdtsc.ticks();
            timer = Math.min(timer, b - a);
        }
        System.out.println("TIMER " + timer);
        System.out.flush();

        for (int a = 4; a < args.length; a++) {
            String name = args[a];
            int period = 64;
            int slash = name.indexOf('/');
            if (slash >= 0) {
                period = Integer.parseInt(name.substring(slash + 1));
                name = name.substring(0, slash);
            }
            int id = k.id(name);
            if (id < 0) {
                System.out.println("ERROR no kernel " + name);
                continue;
            }
            int n = period;
            long t = best(k, id, n, 3);
            while (t < target / 8 && n < (1 << 24)) {
                n *= 4;
                t = best(k, id, n, 2);
            }
            double per = (double) t / n;
            int n2 = Math.max(2 * period, roundTo(target / per, period));
            int n1 = roundTo(n2 / 5.0, period);
            if (n2 < n1 + period)
                n2 = n1 + period;
            long min1 = Long.MAX_VALUE, min2 = Long.MAX_VALUE;
            int rounds = 0, quiet = 0;
            while (rounds < maxReps && (rounds < minReps || quiet < stable)) {
                long t1 = once(k, id, n1);
                long t2 = once(k, id, n2);
                boolean better = t1 < min1 * 0.998 || t2 < min2 * 0.998;
                min1 = Math.min(min1, t1);
                min2 = Math.min(min2, t2);
                quiet = better ? 0 : quiet + 1;
                rounds++;
            }
            System.out.println("K " + name + " " + n1 + " " + n2 + " " + min1 + " " + min2 + " " + rounds);
            System.out.flush();
        }
        System.out.println("DONE " + (sink == 42 ? "" : "ok"));
    }
}
