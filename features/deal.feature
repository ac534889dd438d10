@DEAL
Feature: The deal
  The dealer shuffles and deals six cards to every player, starting with the player on his left
  and going clockwise. Most tables deal one card at a time, six rounds; some deal each player's
  six at once. Seats are numbered clockwise from 0, so the dealer's left is the next seat number
  (and seat 0 follows the last seat).

  The order of the shuffled deck is part of the game's input: a test gives the whole deck, or a
  seed from which every engine shuffles the same way. In these scenarios the "unshuffled" deck
  is the canonical order: clubs, diamonds, hearts, spades, each from its lowest rank to the ace
  (6C 7C 8C 9C TC JC QC KC AC 6D 7D ... AS for 36 cards).

  Rule: Six cards each, from the dealer's left, in the agreed order
    @R-DEAL-1
    Scenario Outline: Dealing the unshuffled deck <deal_order> to two players
      Given a 2-player podkidnoy game
      And the option deal_order is <deal_order>
      And the deck is unshuffled
      And player 1 deals
      When the game is dealt
      Then player 0 holds <first hand>
      And player 1 holds <second hand>
      And the trump card is 9D
      And the talon holds 24 cards

      Examples:
        | deal_order    | first hand        | second hand       |
        | one_at_a_time | 6C 8C TC QC AC 7D | 7C 9C JC KC 6D 8D |
        | six_at_once   | 6C 7C 8C 9C TC JC | QC KC AC 6D 7D 8D |

    @R-DEAL-1
    Scenario: The first card goes to the dealer's left and the dealer is served last
      Given a 3-player podkidnoy game
      And the deck is unshuffled
      And player 0 deals
      When the game is dealt
      Then player 1 holds 6C 9C QC 6D 9D QD
      And player 2 holds 7C TC KC 7D TD KD
      And player 0 holds 8C JC AC 8D JD AD
      And the trump card is 6H

  Rule: The deck order is an input of the game
    @R-DEAL-2
    Scenario: A given deck is dealt exactly as it lies
      Given a 2-player podkidnoy game
      And the deck, top first, begins with AS, KS, QS, JS
      And player 1 deals
      When the game is dealt
      Then player 0 holds AS QS 6C 8C TC QC
      And player 1 holds KS JS 7C 9C JC KC
      And the trump card is AC

    @R-DEAL-2
    Scenario: A seed shuffles the deck the same way in every engine
      Given a 3-player podkidnoy game
      And the deck is shuffled with seed 42
      When the game is dealt
      Then the deal is the one the portable shuffle gives for seed 42
      And dealing again with seed 42 gives the same game

    @R-DEAL-2
    Scenario Outline: Seeds above 2^53 are dealt exactly: <seed>
      A seed is an unsigned 64-bit integer. A JSON reader that keeps numbers as doubles rounds
      these seeds to a neighbour and deals another deck; the deal must be this seed's.
      Given a 2-player podkidnoy game
      And the deck is shuffled with seed <seed>
      When the game is dealt
      Then the deal is the one the portable shuffle gives for seed <seed>

      Examples:
        | seed                 |
        | 9007199254740993     |
        | 18446744073709551615 |

    @R-DEAL-2 @opt:deck_size=52
    Scenario: The portable shuffle also orders a 52-card pack
      Given a 4-player podkidnoy game
      And the deck is shuffled with seed 18446744073709551615
      When the game is dealt
      Then the deal is the one the portable shuffle gives for seed 18446744073709551615

  Rule: Unless told otherwise, the last seat deals the first game
    @R-DEAL-3
    Scenario: Four players, no dealer named: player 3 deals
      Given a 4-player podkidnoy game
      And the deck is unshuffled
      When the game is dealt
      Then the dealer is player 3
      And player 0 holds 6C TC AC 9D KD 8H
      And the trump card is QH

    @R-DEAL-3
    Scenario: Four players, player 1 named as dealer
      Given a 4-player podkidnoy game
      And the deck is unshuffled
      And player 1 deals
      When the game is dealt
      Then the dealer is player 1
      And player 0 holds 8C QC 7D JD 6H TH
      And the trump card is QH
