import java.util.ArrayList;

/** ArrayList of Integers: add, get, set, remove from the end. */
public class CollArrayList {
    public static long run() {
        ArrayList<Integer> l = new ArrayList<>();
        long s = 0;
        for (int round = 0; round < 8; round++) {
            for (int i = 0; i < 4000; i++) l.add(i & 1023);
            for (int i = 0; i < l.size(); i++) { s += l.get(i); l.set(i, (int) (s & 255)); }
            while (l.size() > 100) s += l.remove(l.size() - 1);
        }
        return s;
    }
    public static void main(String[] args) { System.out.println(run()); }
}
