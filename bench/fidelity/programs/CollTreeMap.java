import java.util.Map;
import java.util.TreeMap;

/** TreeMap inserts, lookups and an ordered walk. */
public class CollTreeMap {
    public static long run() {
        TreeMap<Integer, Integer> m = new TreeMap<>();
        long seed = 23;
        for (int i = 0; i < 12000; i++) {
            seed = seed * 6364136223846793005L + 1442695040888963407L;
            m.put((int) (seed >>> 44), i);
        }
        long s = 0;
        for (int k = 0; k < 8000; k++) { Integer v = m.get(k * 37); if (v != null) s += v; }
        for (Map.Entry<Integer, Integer> e : m.entrySet()) s += e.getKey() ^ e.getValue();
        return s;
    }
    public static void main(String[] args) { System.out.println(run()); }
}
