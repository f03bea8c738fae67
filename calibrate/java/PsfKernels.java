/** What the generated Kernels class offers the harness (psf-calibrate). */
public interface PsfKernels {
    /** The id of a kernel by name, or -1. */
    int id(String name);

    /** Run kernel id for n loop iterations; returns its sink value. */
    long call(int id, int n);
}
