/* Exercise: sort an int array in place (Sorter.sort); main is the course template. */
public class Sorter {
    public static void sort(int[] a) {
        java.util.Arrays.sort(a);
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 300;
        int[] a = new int[n];
        long seed = 42;
        for (int i = 0; i < n; i++) {
            seed = seed * 6364136223846793005L + 1442695040888963407L;
            a[i] = (int) ((seed >>> 33) % 1000);
        }
        sort(a);
        for (int i = 1; i < n; i++)
            if (a[i - 1] > a[i])
                throw new AssertionError("not sorted at " + i);
        System.out.println("sorted " + n);
    }
}
