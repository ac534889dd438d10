@INFO
Feature: What the players know
  Everybody sees the table, how many cards each player holds, how many remain in the talon, and
  the trump card while it lies face up under the talon. Nobody sees the other players' hands or
  the order of the talon. But cards that went into a hand face up stay known: the cards a
  defender picked up, the trump card when it was drawn, a trump shown for a transfer. The discard
  pile lies face down; at some tables nobody may look through it, at others its contents are
  common knowledge (every card in it was played face up).

  Rule: Public information
    @R-INFO-1
    Scenario: After the deal a player sees his hand, the others' hand sizes and the trump card
      Given a 2-player podkidnoy game
      And the deck is unshuffled
      And player 1 deals
      When the game is dealt
      Then player 0 sees their own hand 6C 8C TC QC AC 7D
      And player 0 sees 6 cards in player 1's hand
      And player 0 sees that player 1 holds nothing
      And player 0 sees the trump card 9D and a talon of 24 cards
      And player 0 sees no card hidden from them

    @R-INFO-1 @R-TRUMP-2
    Scenario: Once drawn, the trump card no longer lies face up, but its holder is known
      Given a 2-player podkidnoy game
      And the trump suit is hearts
      And the talon, top first, is 7S, 9H
      And player 0 holds 6C, 7C, 8C, TD, JD, QD
      And player 1 holds 9C, TC, JC, KS, AS, QC
      When player 0 attacks with 6C
      And the defender beats 6C with 9C
      And player 0 passes
      Then player 0 sees no trump card, only that hearts are trumps
      And player 0 sees that player 1 holds 9H
      And player 0 sees no card hidden from them

  Rule: The discard pile
    @R-INFO-2
    Scenario Outline: Looking at the discard pile, discard_visibility <discard_visibility>
      Given a 2-player podkidnoy game
      And the option discard_visibility is <discard_visibility>
      And the trump suit is spades
      And the discard pile is empty
      And player 0 holds 7C, 8C, QC, TD, JD, QD
      And player 1 holds 9C, TC, JC, KD, AD, QH
      When player 0 attacks with 7C
      And the defender beats 7C with 9C
      And player 0 passes
      Then <what player 1 sees>

      Examples:
        | discard_visibility | what player 1 sees                                    |
        | count              | player 1 sees a discard pile of 2 cards but not which |
        | contents           | player 1 sees the discarded cards 7C, 9C              |

  Rule: Cards seen going into a hand stay known
    @R-INFO-3 @R-TAKE-3
    Scenario: Picked-up cards are known until they leave the hand
      Given a 2-player podkidnoy game
      And the trump suit is hearts
      And the talon is empty
      And player 0 holds 7C, 7D, 6C, KS
      And player 1 holds 9C, AD, QS, JS
      When player 0 attacks with 7C and 7D
      And the defender beats 7C with 9C
      And the defender takes
      And player 0 passes
      Then player 0 sees that player 1 holds 7C, 9C, 7D
      When player 0 attacks with 6C
      And the defender beats 6C with 7C
      Then player 0 sees that player 1 holds 9C, 7D
