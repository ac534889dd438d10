@DECK
Feature: The deck
  Durak is played with a French pack stripped of its low cards. The classic pack has 36 cards: the
  ranks six to ace in each of the four suits. Smaller tables may use 24 cards (nine to ace), larger
  ones 52 (two to ace), and some play with two identical packs shuffled together. Whatever the
  pack, its lowest rank plays the part the rules give to "the six".

  Cards are written rank then suit: 6 7 8 9 T J Q K A (T is the ten; 2 to 5 with a 52-card pack)
  and C D H S for clubs, diamonds, hearts and spades. The second copy of a card, with two packs,
  carries a 2: 7S and 7S2 are twins.

  Rule: The pack's size fixes its ranks
    @R-DECK-1
    Scenario Outline: A <deck_size>-card pack runs from <lowest> up to the aces
      Given a 2-player podkidnoy game
      And the option deck_size is <deck_size>
      And the deck is shuffled with seed 7
      When the game is dealt
      Then the game uses <deck_size> cards from <lowest> up to aces

      Examples:
        | deck_size | lowest |
        | 24        | 9      |
        | 36        | 6      |
        | 52        | 2      |

    @R-DECK-1 @R-DECK-3 @opt:decks=2
    Scenario: Two packs hold every card twice
      Given a 2-player podkidnoy game
      And the deck is shuffled with seed 11
      When the game is dealt
      Then the game uses 72 cards from 6 up to aces

  Rule: Ranks rise within a suit; the suits themselves have no order
    The ace is the highest card of its suit and the lowest rank of the pack the lowest. A card
    of one suit is neither higher nor lower than a card of another suit: only trumps stand
    above the other suits (see the rules of beating).

    Background:
      Given a 2-player podkidnoy game
      And the trump suit is hearts
      And player 0 holds JS, QS, KS
      And player 1 holds 8C, AC, 6C, AD
      And player 0 has attacked with 7C

    @R-DECK-2
    Scenario: A higher card of the suit stands above a lower one
      Then the defender may beat 7C with 8C
      And the defender may beat 7C with AC
      And the defender may not beat 7C with 6C

    @R-DECK-2
    Scenario: An ace of another plain suit is no higher than a seven of clubs
      Then the defender may not beat 7C with AD

  Rule: With 52 cards the two is the lowest rank
    @R-DECK-2 @opt:deck_size=52
    Scenario: The two of a suit is beaten by its three, never the other way round
      Given a 2-player podkidnoy game
      And the trump suit is hearts
      And player 0 holds 6S, 7S
      And player 1 holds 2D, 4D, 5C
      And player 0 has attacked with 3D
      Then the defender may not beat 3D with 2D
      And the defender may beat 3D with 4D

  Rule: Twins are two distinct cards, and neither beats the other
    @R-DECK-3 @opt:decks=2
    Scenario: A card cannot beat its own twin
      Given a 2-player podkidnoy game
      And the trump suit is hearts
      And player 0 holds KC, KD
      And player 1 holds 7S2, 8S, 7H2, 8H
      And player 0 has attacked with 7S, 7H
      Then the defender may not beat 7S with 7S2
      And the defender may beat 7S with 8S
      And the defender may not beat 7H with 7H2
      And the defender may beat 7H with 8H

    @R-DECK-3 @opt:decks=2
    Scenario: Both twins may lie on the table in the same bout
      Given a 2-player podkidnoy game
      And the trump suit is hearts
      And player 0 holds 7S2, KD, KC
      And player 1 holds 8S, 9S, TS, JS
      And player 0 has attacked with 7S
      Then player 0 may throw in 7S2

  Rule: Every player gets six cards, so the pack limits the table
    Two to six players share a 36-card pack, two to four a 24-card pack, and up to eight a
    52-card pack: never more players than the pack has sixes of cards.

    @R-DECK-4
    Scenario Outline: <players> players with a <deck_size>-card pack: <verdict>
      Given a <players>-player podkidnoy game
      And the option deck_size is <deck_size>
      And the deck is shuffled with seed 5
      Then <outcome>

      Examples:
        | players | deck_size | verdict  | outcome                    |
        | 2       | 24        | allowed  | every player holds 6 cards |
        | 4       | 24        | allowed  | every player holds 6 cards |
        | 5       | 24        | too many | the game cannot be set up  |
        | 6       | 36        | allowed  | every player holds 6 cards |
        | 7       | 36        | too many | the game cannot be set up  |
        | 8       | 52        | allowed  | every player holds 6 cards |
        | 9       | 52        | too many | the game cannot be set up  |
        | 1       | 36        | too few  | the game cannot be set up  |

  Rule: Cards change places, never number
    Every card of the pack is always in exactly one place: a hand, the talon, the table or the
    discard pile. Playing, beating, picking up, discarding and drawing move cards; nothing makes,
    copies or loses one. So every state of the game is a whole position, and any referee may check
    it whatever else it is looking at.

    @R-DECK-5 @R-PLAY-6
    Scenario: After a bout is beaten, discarded and drawn, the pack is still whole
      Given a 2-player podkidnoy game
      And the deck is unshuffled
      And player 1 deals
      When the players play:
        | player 1 | attacks with 7C    |
        | player 0 | beats 7C with 8C   |
        | player 1 | passes             |
      Then the table is empty
      And player 0 holds 6 cards
      And player 1 holds 6 cards
      And the game uses 36 cards from 6 up to aces
