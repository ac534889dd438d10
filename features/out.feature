@OUT
Feature: Going out
  While the talon lasts, a player who runs out of cards simply draws again after the bout. Once
  the talon is empty, a player with no cards left has finished: he is out of the game, makes no
  more moves, is never attacked and never draws. Tables differ on when this takes effect: at the
  end of the bout (the defender still gets to answer the last card), or at once, so that a game
  can end in the middle of a bout.

  Background:
    Given the trump suit is spades

  Rule: No cards and no talon: out
    @R-OUT-1
    Scenario: A player who empties his hand while the talon lasts plays on
      Player 0 began the bout with six, as every hand does while the talon lasts (R-DRAW-1), and
      has led five of them; cards have been discarded, so the cap of six lets his last one come.

      Given a 2-player podkidnoy game
      And the talon holds 8 cards
      And player 0 holds AC
      And player 1 holds 9S
      And player 0 has attacked with 6C
      And the defender has beaten 6C with 8C
      And player 0 has thrown in 8D
      And the defender has beaten 8D with TD
      And player 0 has thrown in TC
      And the defender has beaten TC with QC
      And player 0 has thrown in QD
      And the defender has beaten QD with KD
      And player 0 has thrown in KH
      And the defender has beaten KH with AH
      When player 0 throws in AC
      And the defender beats AC with 9S
      Then player 0 is not out
      And player 0 holds 6 cards

    @R-OUT-1 @R-ROLE-2
    Scenario: A player who empties his hand with the talon empty is out
      Given a 3-player podkidnoy game
      And the talon is empty
      And player 0 holds 7C
      And player 1 holds 9C, JC
      And player 2 holds 8D, JD, QD
      When player 0 attacks with 7C
      And the defender beats 7C with 9C
      And player 2 passes
      Then player 0 is out
      And the game goes on
      And player 1 attacks next
      And the defender is player 2

  Rule: When going out takes effect
    @R-OUT-2
    Scenario Outline: The last card of one of three players, out_timing <out_timing>
      Given a 3-player podkidnoy game
      And the option out_timing is <out_timing>
      And the talon is empty
      And player 0 holds 7C
      And player 1 holds 9C, JC
      And player 2 holds 8D, JD, QD
      When player 0 attacks with 7C
      Then <state of player 0>
      And the game goes on
      And the defender may beat 7C with 9C

      Examples:
        | out_timing | state of player 0   |
        | bout_end   | player 0 is not out |
        | immediate  | player 0 is out     |

    @R-OUT-2 @R-END-1 @opt:tie=draw
    Scenario Outline: The last card of one of two players, out_timing <out_timing>
      Both players hold one card; the defender's nine would beat the seven.

      Given a 2-player podkidnoy game
      And the option out_timing is <out_timing>
      And the talon is empty
      And player 0 holds 7C
      And player 1 holds 9C
      When player 0 attacks with 7C
      Then <first>
      And <second>

      Examples:
        | out_timing | first                | second                           |
        | bout_end   | the game goes on     | the defender may beat 7C with 9C |
        | immediate  | player 1 is the fool | nobody may move                  |

  Rule: Players going out in the same bout finish in the order their hands emptied
    @R-OUT-3
    Scenario: The attacker's hand empties first, then the defender's
      Player 2 attacks player 0 with his last card and player 0 beats it with his own last one.

      Given a 3-player podkidnoy game
      And the talon is empty
      And player 2 is the attacker
      And player 2 holds 7C
      And player 0 holds 9C
      And player 1 holds 8D, JD
      When player 2 attacks with 7C
      And the defender beats 7C with 9C
      Then the finishing order is 2, 0
      And player 1 is the fool
