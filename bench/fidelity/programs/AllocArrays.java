/** Many short-lived arrays of several types and sizes. */
public class AllocArrays {
    public static long run() {
        long s = 0;
        for (int i = 0; i < 40000; i++) {
            int[] a = new int[8 + (i & 31)];
            double[] d = new double[4];
            byte[] b = new byte[64];
            Object[] o = new Object[2];
            a[i % a.length] = i;
            d[1] = i;
            b[i & 63] = (byte) i;
            o[0] = a;
            s += a.length + b[3] + (long) d[1] + o.length;
        }
        return s;
    }
    public static void main(String[] args) { System.out.println(run()); }
}
