/**
 * Counting driver of psf-calibrate: runs one kernel once, under the counting
 * agent aimed at Kernels.k_NAME.
 *
 * Usage: java -agentpath:...=method=Kernels.k_NAME,out=... -cp HARNESS:KERNELS Count NAME N
 */
public final class Count {
    private Count() { }

    public static void main(String[] args) throws Exception {
        PsfKernels k = (PsfKernels) Class.forName("Kernels").getDeclaredConstructor().newInstance();
        int id = k.id(args[0]);
        if (id < 0) {
            System.err.println("Count: no kernel " + args[0]);
            System.exit(2);
        }
        System.out.println(k.call(id, Integer.parseInt(args[1])));
    }
}
