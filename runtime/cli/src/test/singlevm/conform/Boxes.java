package conform;

/**
 * Boxed values through shared fields, made on another node: values, {@code equals}, and the identity the JDK's box
 * caches promise ({@code Integer.valueOf(100) == Integer.valueOf(100)}, {@code Boolean.TRUE}, small
 * {@code Long}, {@code Character}, {@code Short}, {@code Byte}), arithmetic with unboxing, and boxes in an
 * {@code Object[]}.
 */
final class Boxes implements Conform.Case {
    static final class Holder {
        Integer small;
        Integer big;
        Long smallLong;
        Character ch;
        Boolean flag;
        Short sh;
        Byte by;
        Double d;
        Object any;
        final Object[] objects = new Object[4];
    }

    @Override
    public void run(Conform.Out out) throws Exception {
        Holder h = new Holder();
        Thread t = new Thread(() -> {
            h.small = Integer.valueOf(100);
            h.big = 100_000;
            h.smallLong = 7L;
            h.ch = 'q';
            h.flag = Boolean.valueOf(true);
            h.sh = (short) 12;
            h.by = (byte) -3;
            h.d = 2.5;
            h.any = 99;
            h.objects[0] = 5;
            h.objects[1] = 'z';
            h.objects[2] = false;
            h.objects[3] = 123456789012L;
        });
        Conform.startJoin(t);
        out.println("cached " + (h.small == Integer.valueOf(100)) + " " + (h.smallLong == Long.valueOf(7)) + " "
            + (h.ch == Character.valueOf('q')) + " " + (h.flag == Boolean.TRUE) + " " + (h.sh == Short.valueOf(
            (short) 12)) + " " + (h.by == Byte.valueOf((byte) -3)) + " " + (h.any == Integer.valueOf(99)) + " "
            + (h.objects[0] == Integer.valueOf(5)) + " " + (h.objects[2] == Boolean.FALSE));
        out.println("values " + (h.small + h.big) + " " + h.big.equals(100_000) + " " + (h.smallLong * 2) + " "
            + h.ch + " " + h.flag + " " + (h.sh + h.by) + " " + h.d / 2 + " " + h.objects[1] + " "
            + h.objects[3].getClass().getSimpleName() + " " + h.any.getClass().getSimpleName());
    }
}
