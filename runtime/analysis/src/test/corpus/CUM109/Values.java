package corpus.cum109;

import dev.cumulus.Cloud;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

enum Suit { HEARTS, SPADES }

record Card(Suit suit, int rank, String name) {
}

class Slot implements Cloud.Node {
    Card card;
}

/** Conforming: arrays, immutable values, records of immutables, enums, cloud nodes and collections of those. */
public class Values implements Cloud.Root {
    private int[][] grid = new int[4][4];
    private String name = "values";
    private Integer boxed = 1;
    private BigInteger big = BigInteger.ONE;
    private Suit trump = Suit.HEARTS;
    private Card top = null;
    private Slot slot = new Slot();
    private List<Card> deck = new ArrayList<>();
    private Map<String, List<int[]>> index = new HashMap<>();
    private Slot[] slots = new Slot[2];

    public void put(Card c) { // classify: write
        deck.add(c);
    }

    public int score() { // classify: read
        return grid[0][0] + name.length() + boxed + big.intValue() + trump.ordinal() + deck.size() + index.size()
                + slots.length + (top == null ? 0 : top.rank()) + (slot.card == null ? 0 : 1);
    }
}
