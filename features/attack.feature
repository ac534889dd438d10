@ATTACK
Feature: Attacking
  A bout opens when the main attacker lays a card on the empty table. He may lead any card he
  likes, a trump too; at many tables he may lead several cards of one rank at once. After the
  opening, more cards come only as throw-ins (see throwing in).

  Two limits keep the attack fair. The defender must be able to answer: there are never more
  unbeaten attack cards on the table than cards in his hand. And there is a cap on the attack
  cards of one bout, beaten or not: six at most at most tables, and often only five until the
  first successful defence of the game has sent cards to the discard pile.

  Rule: The main attacker opens with any card, and nothing happens before
    @R-ATTACK-1
    Scenario: Before the opening only the main attacker moves, and only to attack
      Given a 2-player podkidnoy game
      And the trump suit is hearts
      And the talon is empty
      And player 0 holds 7C, 9H, KD
      And player 1 holds 8C, JS, QS
      Then player 0 may only attack with 7C or attack with 9H or attack with KD
      And player 1 has no move

    @R-ATTACK-1
    Scenario: Nothing but an attack is accepted on an empty table
      Given a 2-player podkidnoy game
      And the trump suit is hearts
      And the talon is empty
      And player 0 holds 7C, 9H, KD
      And player 1 holds 8C, JS, QS
      When player 0 throws in 7C
      Then the move is refused citing R-ATTACK-1
      When player 0 passes
      Then the move is refused citing R-ATTACK-1
      When the defender takes
      Then the move is refused citing R-ATTACK-1

    @R-ATTACK-1
    Scenario: A bout has only one opening
      Given a 2-player podkidnoy game
      And the trump suit is hearts
      And the talon is empty
      And player 0 holds 7C, 9H, KD
      And player 1 holds 8C, JS, QS
      When player 0 attacks with 7C
      Then player 0 may not attack with KD
      When player 0 attacks with KD
      Then the move is refused citing R-ATTACK-1

  Rule: The opening is one card, or at some tables several cards of one rank
    Each scenario is the first bout of the game: the players hold the six cards dealt.

    @R-ATTACK-2
    Scenario Outline: Leading several sevens with opening <opening>
      Given a 2-player podkidnoy game
      And the option opening is <opening>
      And the trump suit is spades
      And the discard pile is empty
      And player 0 holds 7C, 7D, 7H, KS, 9D, JD
      And player 1 holds 8C, 9C, TC, JC, QC, AC
      Then player 0 may attack with 7C
      And player 0 <two> attack with 7C and 7D
      And player 0 <three> attack with 7C, 7D and 7H
      And player 0 may not attack with 7C and KS

      Examples:
        | opening   | two     | three   |
        | same_rank | may     | may     |
        | single    | may not | may not |

    @R-ATTACK-2 @opt:opening=same_rank
    Scenario: Cards of two ranks are never led together
      Given a 2-player podkidnoy game
      And the trump suit is spades
      And the discard pile is empty
      And player 0 holds 7C, 7D, 7H, KS, 9D, JD
      And player 1 holds 8C, 9C, TC, JC, QC, AC
      When player 0 attacks with 7C and KS
      Then the move is refused citing R-ATTACK-2

    @R-ATTACK-2 @opt:opening=single
    Scenario: With single openings a pair of sevens is refused
      Given a 2-player podkidnoy game
      And the trump suit is spades
      And the discard pile is empty
      And player 0 holds 7C, 7D, 7H, KS, 9D, JD
      And player 1 holds 8C, 9C, TC, JC, QC, AC
      When player 0 attacks with 7C and 7D
      Then the move is refused citing R-ATTACK-2

  Rule: The cap on attack cards in one bout
    The five-card first bout is counted two ways: "while the discard pile is empty" (no bout has
    yet ended in a successful defence: taken bouts do not count) or "in bout number 1".

    Background:
      Given a 2-player podkidnoy game
      And the trump suit is hearts

    @R-ATTACK-3
    Scenario Outline: A sixth card in the first bout, attack_limit <attack_limit>
      Five cards have been led in the first bout of the game and four of them beaten (with all
      five beaten a cap of five would have closed the bout, R-BOUT-1). Each player was dealt six,
      so the attacker has one card left and the defender two to answer with.

      Given the option attack_limit is <attack_limit>
      And the discard pile is empty
      And player 0 holds 8S
      And player 1 holds AC, AD
      And player 0 has attacked with 6C
      And the defender has beaten 6C with 7C
      And player 0 has thrown in 7D
      And the defender has beaten 7D with 8D
      And player 0 has thrown in 8C
      And the defender has beaten 8C with 9C
      And player 0 has thrown in 9D
      And the defender has beaten 9D with TD
      And player 0 has thrown in TC
      Then player 0 <verdict> throw in 8S

      Examples:
        | attack_limit        | verdict |
        | hand                | may     |
        | six                 | may     |
        | six_five_first      | may not |
        | six_five_first_bout | may not |

    @R-ATTACK-3
    Scenario Outline: A sixth card in bout 3 after two taken bouts, attack_limit <attack_limit>
      Both earlier bouts ended in a take, so nothing has been discarded yet: player 1 picked up
      one card each time and began this bout with eight, player 0 refilled to six. Five cards
      have been led and four of them beaten.

      Given the option attack_limit is <attack_limit>
      And the discard pile is empty
      And this is bout 3
      And player 0 holds 8S
      And player 1 holds AC, AD, KC, KD
      And player 0 has attacked with 6C
      And the defender has beaten 6C with 7C
      And player 0 has thrown in 7D
      And the defender has beaten 7D with 8D
      And player 0 has thrown in 8C
      And the defender has beaten 8C with 9C
      And player 0 has thrown in 9D
      And the defender has beaten 9D with TD
      And player 0 has thrown in TC
      Then player 0 <verdict> throw in 8S

      Examples:
        | attack_limit        | verdict |
        | hand                | may     |
        | six                 | may     |
        | six_five_first      | may not |
        | six_five_first_bout | may     |

    @R-ATTACK-3
    Scenario Outline: A seventh card once cards have been discarded, attack_limit <attack_limit>
      Six cards have been led and five of them beaten (with all six beaten a cap of six would
      have closed the bout, R-BOUT-1). Both players began the bout with seven cards: each has
      picked up cards in an earlier bout. The talon still holds 20 cards, as it can: a hand above
      six draws nothing (R-DRAW-1), and the one pair in the discard pile is enough to lift the
      first bout's cap of five.

      Given the option attack_limit is <attack_limit>
      And the talon holds 20 cards
      And player 0 holds 8S
      And player 1 holds AC, AD
      And player 0 has attacked with 6C
      And the defender has beaten 6C with 7C
      And player 0 has thrown in 7D
      And the defender has beaten 7D with 8D
      And player 0 has thrown in 8C
      And the defender has beaten 8C with 9C
      And player 0 has thrown in 9D
      And the defender has beaten 9D with TD
      And player 0 has thrown in TC
      And the defender has beaten TC with JC
      And player 0 has thrown in JD
      Then player 0 <verdict> throw in 8S

      Examples:
        | attack_limit        | verdict |
        | hand                | may     |
        | six                 | may not |
        | six_five_first      | may not |
        | six_five_first_bout | may not |

    @R-ATTACK-3 @opt:attack_limit=six_five_first
    Scenario: A card beyond the cap is refused
      Five cards have been led in the first bout and four of them beaten; the attacker's last
      card would be a sixth.

      Given the discard pile is empty
      And player 0 holds 8S
      And player 1 holds AC, AD
      And player 0 has attacked with 6C
      And the defender has beaten 6C with 7C
      And player 0 has thrown in 7D
      And the defender has beaten 7D with 8D
      And player 0 has thrown in 8C
      And the defender has beaten 8C with 9C
      And player 0 has thrown in 9D
      And the defender has beaten 9D with TD
      And player 0 has thrown in TC
      When player 0 throws in 8S
      Then the move is refused citing R-ATTACK-3

  Rule: An opening of several cards counts toward the cap
    @R-ATTACK-3 @R-ATTACK-2 @opt:attack_limit=six_five_first
    Scenario: Four sevens led at once leave room for one card under a cap of five
      Given a 2-player podkidnoy game
      And the trump suit is spades
      And the discard pile is empty
      And player 0 holds 9D, 9H
      And player 1 holds 8C, TC, JC, QC, KC, AC
      And player 0 has attacked with 7C, 7D, 7H, 7S
      And the defender has beaten 7C with 9C
      Then player 0 may throw in 9D
      When player 0 throws in 9D
      Then player 0 may not throw in 9H

  Rule: Never more unbeaten attack cards than the defender holds
    The defender must be able to answer every card: a defender down to two cards faces at most
    two unbeaten cards, and each card he beats makes room for one more only if he still holds a
    card to answer it with.

    Background:
      Given a 2-player podkidnoy game
      And the trump suit is spades
      And the talon is empty
      And player 0 holds 7C, 7D, 7H, KS
      And player 1 holds 9C, 9D

    @R-ATTACK-4
    Scenario: Against two cards, at most two cards are led
      Then player 0 may attack with 7C and 7D
      And player 0 may not attack with 7C, 7D and 7H
      When player 0 attacks with 7C, 7D and 7H
      Then the move is refused citing R-ATTACK-4

    @R-ATTACK-4
    Scenario: After one card is beaten, one more may come, not two
      When player 0 attacks with 7C
      And the defender beats 7C with 9C
      Then player 0 may throw in 7D
      When player 0 throws in 7D
      Then player 0 may not throw in 7H
      When player 0 throws in 7H
      Then the move is refused citing R-ATTACK-4
