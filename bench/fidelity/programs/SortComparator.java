import java.util.Arrays;
import java.util.Comparator;

/** Arrays.sort of 6000 records by a lambda comparator: interface dispatch. */
public class SortComparator {
    static final class Rec { final int key; final String name; Rec(int k, String n) { key = k; name = n; } }
    public static long run() {
        Rec[] r = new Rec[6000];
        long seed = 17;
        for (int i = 0; i < r.length; i++) { seed = seed * 6364136223846793005L + 1442695040888963407L; r[i] = new Rec((int) (seed >>> 45), "r"); }
        Arrays.sort(r, Comparator.comparingInt((Rec x) -> x.key));
        return r[0].key + r[r.length - 1].key;
    }
    public static void main(String[] args) { System.out.println(run()); }
}
