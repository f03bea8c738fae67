/** Identity hash codes and getClass on a pool of objects. */
public class NativeHash {
    public static long run() {
        Object[] pool = new Object[64];
        for (int i = 0; i < pool.length; i++) pool[i] = (i & 1) == 0 ? new Object() : new StringBuilder();
        long s = 0;
        for (int i = 0; i < 100000; i++) {
            Object o = pool[i & 63];
            s += System.identityHashCode(o) & 15;
            if (o.getClass() == Object.class) s++;
        }
        return s;
    }
    public static void main(String[] args) { System.out.println(run()); }
}
