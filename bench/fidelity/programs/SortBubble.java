/** Bubble sort of 700 pseudo-random ints: array and local-variable bytecodes. */
public class SortBubble {
    public static long run() {
        int[] a = new int[700];
        long seed = 42;
        for (int i = 0; i < a.length; i++) { seed = seed * 6364136223846793005L + 1442695040888963407L; a[i] = (int) (seed >>> 33); }
        for (int i = 0; i < a.length - 1; i++)
            for (int j = 0; j < a.length - 1 - i; j++)
                if (a[j] > a[j + 1]) { int t = a[j]; a[j] = a[j + 1]; a[j + 1] = t; }
        return a[0] + a[a.length / 2];
    }
    public static void main(String[] args) { System.out.println(run()); }
}
