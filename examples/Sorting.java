/* The bundled example: two sorts of the same input, scored one after the
 * other by scripts/try_example.sh. Usage: java Sorting N */
import java.util.Arrays;

public class Sorting {
    static void bubbleSort(int[] a) {
        for (int i = 0; i < a.length; i++)
            for (int j = 0; j + 1 < a.length - i; j++)
                if (a[j] > a[j + 1]) {
                    int t = a[j];
                    a[j] = a[j + 1];
                    a[j + 1] = t;
                }
    }

    static void insertionSort(int[] a) {
        for (int i = 1; i < a.length; i++) {
            int x = a[i], j = i - 1;
            while (j >= 0 && a[j] > x) {
                a[j + 1] = a[j];
                j--;
            }
            a[j + 1] = x;
        }
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int[] input = new int[n];
        long seed = 42;
        for (int i = 0; i < n; i++) {
            seed = seed * 6364136223846793005L + 1442695040888963407L;
            input[i] = (int) (seed >>> 33) % 1000;
        }
        int[] a = input.clone(), b = input.clone();
        bubbleSort(a);
        insertionSort(b);
        System.out.println(Arrays.equals(a, b) ? "sorted" : "MISMATCH");
    }
}
