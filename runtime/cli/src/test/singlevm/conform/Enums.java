package conform;

/**
 * Enums with fields, constructors, constant-specific bodies and methods, {@code values()}, {@code valueOf},
 * {@code ordinal}, {@code compareTo} and {@code switch} (old and new forms), held in fields and arrays of shared
 * objects and used on other nodes. Enum constants are immutable here (mutable enum state is a documented limit).
 */
final class Enums implements Conform.Case {
    enum Op {
        PLUS("+") {
            @Override
            long apply(long a, long b) {
                return a + b;
            }
        },
        TIMES("*") {
            @Override
            long apply(long a, long b) {
                return a * b;
            }
        },
        MINUS("-") {
            @Override
            long apply(long a, long b) {
                return a - b;
            }
        };

        final String symbol;

        Op(String symbol) {
            this.symbol = symbol;
        }

        abstract long apply(long a, long b);
    }

    enum Planet {
        MERCURY(3.303e+23, 2.4397e6), EARTH(5.976e+24, 6.37814e6), JUPITER(1.9e+27, 7.1492e7);

        private final double mass;
        private final double radius;

        Planet(double mass, double radius) {
            this.mass = mass;
            this.radius = radius;
        }

        double gravity() {
            return 6.67300E-11 * mass / (radius * radius);
        }
    }

    static final class Step {
        Op op;
        long arg;
        Planet planet;
        String seen;
    }

    static String oldSwitch(Op op) {
        switch (op) {
            case PLUS:
                return "add";
            case TIMES:
                return "mul";
            default:
                return "other";
        }
    }

    @Override
    public void run(Conform.Out out) throws Exception {
        Step[] steps = new Step[6];
        for (int i = 0; i < steps.length; i++) {
            steps[i] = new Step();
            steps[i].op = Op.values()[i % 3];
            steps[i].arg = i + 2;
        }
        Op[] picked = new Op[2];
        long[] results = new long[2];
        Thread[] ts = new Thread[2];
        for (int k = 0; k < 2; k++) {
            int me = k;
            ts[k] = new Thread(() -> {
                long acc = me + 1;
                for (Step s : steps) {
                    acc = s.op.apply(acc, s.arg);
                }
                results[me] = acc;
                picked[me] = Op.valueOf(me == 0 ? "TIMES" : "MINUS");
                for (int i = me; i < steps.length; i += 2) {
                    Step s = steps[i];
                    s.planet = Planet.values()[i % Planet.values().length];
                    s.seen = s.op.name() + s.op.symbol + s.op.ordinal() + " " + oldSwitch(s.op) + " "
                        + (s.op == Op.PLUS) + " " + s.op.compareTo(Op.TIMES) + " " + s.op.getDeclaringClass()
                        .getSimpleName() + " " + switch (s.planet) {
                            case EARTH -> "home";
                            case MERCURY, JUPITER -> "away";
                        };
                }
            });
        }
        Conform.startJoin(ts);
        out.println("results " + results[0] + " " + results[1] + " picked " + picked[0] + " " + picked[1]
            + " same " + (picked[0] == Op.TIMES) + " " + (picked[1] == Op.MINUS));
        for (Step s : steps) {
            out.println(s.seen + " " + s.planet + " " + String.format("%.2f", s.planet.gravity())
                + " " + (s.planet == Planet.valueOf(s.planet.name())));
        }
    }
}
