import java.util.HashMap;

/** HashMap word-count over pseudo-random integer keys. */
public class CollHashMap {
    public static long run() {
        HashMap<Integer, Integer> m = new HashMap<>();
        long seed = 21;
        for (int i = 0; i < 30000; i++) {
            seed = seed * 6364136223846793005L + 1442695040888963407L;
            int k = (int) (seed >>> 52);
            m.merge(k, 1, Integer::sum);
        }
        long s = 0;
        for (int k = 0; k < 4096; k++) { Integer v = m.get(k); if (v != null) s += v * k; }
        return s + m.size();
    }
    public static void main(String[] args) { System.out.println(run()); }
}
