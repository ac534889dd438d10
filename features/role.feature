@ROLE
Feature: Attacker and defender
  Play goes in bouts. In every bout one player, the main attacker, attacks the next player
  clockwise, the defender; the other players may join the attack (they throw in cards) but never
  open it. Who attacks in the first game is decided by the trumps dealt; after that the roles move
  round the table according to how each bout ended.

  Rule: The first game: the holder of the lowest trump attacks first
    Most tables let the player holding the lowest trump lead; some simply start at the dealer's
    left. If nobody was dealt a trump the table needs a fallback: the dealer's left, seat 0, or
    the holder of the lowest card (by rank, then clubs, diamonds, hearts, spades).

    @R-ROLE-1
    Scenario Outline: Two players, unshuffled deck, first_attacker <first_attacker>
      The unshuffled deck makes diamonds trumps (the 9 of diamonds is turned up); player 1 is
      dealt the six and eight of diamonds, player 0 the seven.

      Given a 2-player podkidnoy game
      And the option first_attacker is <first_attacker>
      And the deck is unshuffled
      And player 1 deals
      When the game is dealt
      Then player <attacker> attacks first
      And player <defender> defends first

      Examples:
        | first_attacker | attacker | defender |
        | lowest_trump   | 1        | 0        |
        | dealer_left    | 0        | 1        |

    @R-ROLE-1 @opt:first_attacker=lowest_trump
    Scenario: The seven of trumps leads when the six is still in the talon
      Given a 3-player podkidnoy game
      And the deal turns up KH as the trump card
      And the deal gives player 0 6C 7C 8C 9C TC 8H
      And the deal gives player 1 6D 7D 8D 9D TD 7H
      And the deal gives player 2 6S 7S 8S 9S TS AH
      When the game is dealt
      Then player 1 attacks first
      And player 2 defends first

    @R-ROLE-1 @opt:first_attacker=lowest_trump
    Scenario Outline: Nobody holds a trump: no_trump_fallback <no_trump_fallback>
      Player 0 deals; hearts are trumps and no heart was dealt; the six of spades is the lowest
      card in any hand.

      Given a 3-player podkidnoy game
      And the option no_trump_fallback is <no_trump_fallback>
      And player 0 deals
      And the deal turns up KH as the trump card
      And the deal gives player 0 7C 8C 9C TC JC QC
      And the deal gives player 1 7D 8D 9D TD JD QD
      And the deal gives player 2 6S 7S 8S 9S TS JS
      When the game is dealt
      Then player <attacker> attacks first
      And player <defender> defends first

      Examples:
        | no_trump_fallback | attacker | defender |
        | dealer_left       | 1        | 2        |
        | seat_zero         | 0        | 1        |
        | lowest_card       | 2        | 0        |

    @R-ROLE-1 @R-DECK-3 @opt:decks=2 @opt:first_attacker=lowest_trump
    Scenario Outline: Two packs: of the two lowest trumps, the copy dealt first leads
      Player 1 deals one card at a time, so player 0 receives the deck's cards 0, 2, 4, ... and
      player 1 the cards 1, 3, 5, ...

      Given a 2-player podkidnoy game
      And player 1 deals
      And the deal turns up KH as the trump card
      And the deal gives player 0 <hand 0>
      And the deal gives player 1 <hand 1>
      When the game is dealt
      Then player <attacker> attacks first

      Examples:
        | hand 0             | hand 1            | attacker |
        | 6H2 7C 8C 9C TC JC | 7D 8D 9D TD JD 6H | 0        |
        | 7C 8C 9C TC JC 6H2 | 6H 7D 8D 9D TD JD | 1        |

  Rule: The defender is the next opponent clockwise who still holds cards
    @R-ROLE-2 @R-ROLE-3
    Scenario: A player who is out is passed over
      Given a 4-player podkidnoy game
      And the trump suit is spades
      And the talon is empty
      And player 2 is out
      And player 0 holds 7C, KD
      And player 1 holds 9C, QH, AH
      And player 3 holds 8D, JD, 9D
      And player 0 is the attacker
      When player 0 attacks with 7C
      And the defender beats 7C with 9C
      And player 0 passes
      And player 3 passes
      Then the bout ends and its cards are discarded
      And player 1 attacks next
      And the defender is player 3

  Rule: After a successful defence the defender attacks next
    @R-ROLE-3
    Scenario: The defender who beat everything opens the next bout
      Given a 3-player podkidnoy game
      And the trump suit is spades
      And the talon is empty
      And player 0 holds 7C, KD
      And player 1 holds 9C, QH, AH
      And player 2 holds 8D, JD, 9D
      When player 0 attacks with 7C
      And the defender beats 7C with 9C
      And player 0 passes
      And player 2 passes
      Then the bout ends and its cards are discarded
      And player 1 attacks next
      And the defender is player 2

    @R-ROLE-3 @R-BOUT-3 @R-OUT-1
    Scenario: A defender who went out hands the attack to the next player still in
      Given a 3-player podkidnoy game
      And the trump suit is spades
      And the talon is empty
      And player 0 holds 7C, KD
      And player 1 holds 9C
      And player 2 holds 8D, JD, 9D
      When player 0 attacks with 7C
      And the defender beats 7C with 9C
      Then the bout ends and its cards are discarded
      And player 1 is out
      And player 2 attacks next
      And the defender is player 0

  Rule: After a take the player left of the defender attacks next
    The defender who picked up loses his turn to attack.

    @R-ROLE-4
    Scenario: Three players: the attack passes over the taker
      Given a 3-player podkidnoy game
      And the trump suit is spades
      And the talon is empty
      And player 0 holds 7C, KD
      And player 1 holds 9C, QH, AH
      And player 2 holds 8D, JD, 9D
      When player 0 attacks with 7C
      And the defender takes
      And player 0 passes
      And player 2 passes
      Then the defender picks up the cards of the bout
      And player 2 attacks next
      And the defender is player 0

    @R-ROLE-4
    Scenario: Two players: the taker is attacked again
      Given a 2-player podkidnoy game
      And the trump suit is spades
      And the talon is empty
      And player 0 holds 7C, KD, 8D
      And player 1 holds 9C, QH, AH
      When player 0 attacks with 7C
      And the defender takes
      And player 0 passes
      Then player 1 picks up the cards of the bout
      And player 0 attacks next
      And the defender is player 1

    @R-ROLE-4 @R-ROLE-2
    Scenario: Players who are out are skipped when the attack moves on
      Given a 4-player podkidnoy game
      And the trump suit is spades
      And the talon is empty
      And player 2 is out
      And player 0 holds 7C, KD
      And player 1 holds 9C, QH, AH
      And player 3 holds 8D, JD, 9D
      And player 0 is the attacker
      When player 0 attacks with 7C
      And the defender takes
      And player 0 passes
      And player 3 passes
      Then player 1 picks up the cards of the bout
      And player 3 attacks next
      And the defender is player 0

  Rule: Only the main attacker opens the bout; the others join in
    @R-ROLE-5 @R-ATTACK-1
    Scenario: The other attackers wait for the main attacker's lead
      Given a 3-player podkidnoy game
      And the trump suit is spades
      And the talon is empty
      And player 0 holds 7C, KD
      And player 1 holds 9C, QH, AH
      And player 2 holds 8D, JD, 9D
      Then only player 0 may move
      And player 2 may not attack with 8D
      And the defender may not attack with 9C
      When player 2 attacks with 8D
      Then the move is refused citing R-ATTACK-1

    @R-ROLE-5 @opt:throw_in_priority=circle
    Scenario: The main attacker has the first right to add cards
      Given a 3-player podkidnoy game
      And the trump suit is spades
      And the talon is empty
      And player 0 holds 7D, KD
      And player 1 holds TC, QH, AH
      And player 2 holds 7H, JD, 9D
      And player 0 has attacked with 7C
      And the defender has beaten 7C with 9C
      Then player 0 may throw in 7D
      And player 2 may not throw in 7H
      And player 2 may not throw in 9D
