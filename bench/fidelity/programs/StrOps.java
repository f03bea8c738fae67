/** String searching and comparing: indexOf, substring, equals, compareTo. */
public class StrOps {
    public static long run() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 300; i++) sb.append("word").append(i % 17).append(' ');
        String text = sb.toString();
        long s = 0;
        for (int round = 0; round < 30; round++) {
            int from = 0, idx;
            while ((idx = text.indexOf(' ', from)) >= 0) {
                String w = text.substring(from, idx);
                if (w.equals("word3")) s++;
                s += w.compareTo("word9");
                from = idx + 1;
            }
        }
        return s;
    }
    public static void main(String[] args) { System.out.println(run()); }
}
