@TAKE
Feature: Taking
  A defender who cannot or will not beat everything declares "take". He makes no further move in
  the bout; at most tables the attackers may still pile on more cards (matching ranks, within
  the limits, in their usual order), and when they have all passed he picks up every card on the
  table, beaten or not. Having failed, he loses his turn to attack.

  Background:
    Given the trump suit is spades
    And the talon is empty

  Rule: The defender may declare take
    @R-TAKE-1
    Scenario Outline: Taking when every card is beaten, take_allowed <take_allowed>
      Given a 2-player podkidnoy game
      And the option take_allowed is <take_allowed>
      And player 0 holds 7D, KD
      And player 1 holds JC, QC, AC, AS
      And player 0 has attacked with 7C
      And the defender has beaten 7C with 9C
      Then the defender <verdict> take

      Examples:
        | take_allowed   | verdict |
        | while_unbeaten | may not |
        | any_time       | may     |

    @R-TAKE-1 @opt:take_allowed=while_unbeaten
    Scenario: With every card beaten a take is refused
      Given a 2-player podkidnoy game
      And player 0 holds 7D, KD
      And player 1 holds JC, QC, AC, AS
      And player 0 has attacked with 7C
      And the defender has beaten 7C with 9C
      When the defender takes
      Then the move is refused citing R-TAKE-1

    @R-TAKE-1
    Scenario: Once he has declared take the defender beats no more
      Given a 2-player podkidnoy game
      And player 0 holds 7D, KD
      And player 1 holds 9C, JC, QC
      And player 0 has attacked with 7C
      And the defender has declared take
      Then the defender has no move
      When the defender beats 7C with 9C
      Then the move is refused citing R-TAKE-1

  Rule: Piling on after a take
    @R-TAKE-2
    Scenario Outline: After "take", pile_on <pile_on>
      Given a 2-player podkidnoy game
      And the option pile_on is <pile_on>
      And player 0 holds 7D, KD
      And player 1 holds 9C, JC, QC
      And player 0 has attacked with 7C
      When the defender takes
      Then <what happens>
      And <and then>

      Examples:
        | pile_on   | what happens                                | and then                 |
        | allowed   | the bout goes on                            | player 0 may throw in 7D |
        | forbidden | the defender picks up the cards of the bout | player 0 attacks next    |

    @R-TAKE-2 @R-ATTACK-4 @R-BOUT-2 @opt:pile_on=allowed
    Scenario: Piled-on cards still count against the defender's hand
      The defender holds two cards: with 7C already unbeaten, one more seven fills his hand and
      the bout closes without waiting for a pass.

      Given a 2-player podkidnoy game
      And player 0 holds 7D, 7H, KD
      And player 1 holds 6D, 8S
      And player 0 has attacked with 7C
      When the defender takes
      Then player 0 may throw in 7D
      When player 0 throws in 7D
      Then player 1 picks up the cards of the bout
      And player 1 holds 6D, 8S, 7C, 7D
      And player 0 attacks next

  Rule: The taker picks up everything and loses his turn
    @R-TAKE-3 @R-INFO-3
    Scenario: Beaten and unbeaten cards all go to the taker's hand, face up for all to remember
      Given a 3-player podkidnoy game
      And player 0 holds KD, AD
      And player 1 holds JC, QC
      And player 2 holds KH, AH, QH
      And player 0 has attacked with 7C
      And the defender has beaten 7C with 9C
      And player 0 has thrown in 7D
      When the defender takes
      And player 0 passes
      And player 2 passes
      Then player 1 picks up the cards of the bout
      And player 1 holds JC, QC, 7C, 9C, 7D
      And player 1 is known to hold 7C, 9C, 7D
      And player 2 attacks next
