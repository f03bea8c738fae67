import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Collections.sort of 12000 boxed Integers: compareTo calls and object arrays. */
public class SortObjects {
    public static long run() {
        List<Integer> l = new ArrayList<>();
        long seed = 13;
        for (int i = 0; i < 12000; i++) { seed = seed * 6364136223846793005L + 1442695040888963407L; l.add((int) (seed >>> 40)); }
        Collections.sort(l);
        return l.get(5) + l.get(l.size() - 5);
    }
    public static void main(String[] args) { System.out.println(run()); }
}
