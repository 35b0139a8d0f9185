import java.util.*;
public class JR {
  public static void main(String[] a) {
    long[] seeds = {0L, 1L, 42L, -1L, 7L, 123456789012345L, Long.MIN_VALUE, Long.MAX_VALUE, -987654321L};
    int[] bounds = {1, 2, 3, 5, 7, 10, 16, 64, 100, 1000, 1<<30, (1<<30)+1, 2147483647, 1500000000};
    StringBuilder sb = new StringBuilder("[");
    for (long s : seeds) {
      Random r = new Random(s);
      StringBuilder ints = new StringBuilder();
      for (int i=0;i<5;i++) ints.append(r.nextInt()).append(",");
      StringBuilder bi = new StringBuilder();
      for (int b : bounds) for (int i=0;i<4;i++) bi.append(r.nextInt(b)).append(",");
      long l1 = r.nextLong(), l2 = r.nextLong();
      double d = r.nextDouble(); boolean bo = r.nextBoolean();
      List<Integer> lst = new ArrayList<>(); for (int i=0;i<10;i++) lst.add(i);
      Collections.shuffle(lst, r);
      List<Integer> l5 = new ArrayList<>(Arrays.asList(1,2,3,4,5));
      Collections.shuffle(l5, new Random(s));
      sb.append(String.format("{\"seed\":%d,\"ints\":[%s],\"bounded\":[%s],\"longs\":[%d,%d],\"double\":%s,\"bool\":%b,\"shuffle10\":%s,\"shuffle5_fresh\":%s},\n",
        s, ints.substring(0, ints.length()-1), bi.substring(0, bi.length()-1), l1, l2, Double.toString(d), bo, lst, l5));
    }
    System.out.println(sb);
  }
}
