/** The time-stamp counter, read serialized (lfence; rdtsc; lfence) by build/libpsfrdtsc.so. */
public final class Rdtsc {
    private Rdtsc() { }

    public static native long ticks();

    static {
        String lib = System.getProperty("psf.rdtsc");
        if (lib == null)
            throw new IllegalStateException("set -Dpsf.rdtsc=/path/to/libpsfrdtsc.so");
        System.load(lib);
    }
}
