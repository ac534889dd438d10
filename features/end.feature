@END
Feature: The end of the game
  The game ends when, with the talon empty, at most one player still holds cards. That player is
  the fool, the durak. In the classic game nobody wins: there is only a loser. Some tables honour
  the first player out as the winner, or rank everybody who got out. If the last players all run
  out in the same bout there is no one left holding cards: most tables call it a draw, some make
  the last defender the fool. And a fool who had to pick up sixes in the last bout may be mocked
  as the "fool with epaulettes".

  Background:
    Given the trump suit is spades
    And the talon is empty

  Rule: The game ends when at most one player holds cards
    @R-END-1
    Scenario: With two players still holding cards the game goes on
      Given a 3-player podkidnoy game
      And player 0 holds 7C
      And player 1 holds 9C, JC
      And player 2 holds 8D, JD, QD
      When player 0 attacks with 7C
      And the defender beats 7C with 9C
      And player 2 passes
      Then player 0 is out
      And the game goes on

  Rule: The last player holding cards is the fool
    @R-END-2 @R-TAKE-3
    Scenario: A defender who has to take in the last bout is the fool
      Given a 2-player podkidnoy game
      And player 0 holds 7C
      And player 1 holds 6C, 8D, 9D
      When player 0 attacks with 7C
      And the defender takes
      Then player 1 picks up the cards of the bout
      And the game is over
      And player 1 is the fool
      And the finishing order is 0

  Rule: Everybody out in the same bout
    @R-END-3
    Scenario Outline: The last card beaten with the last card, tie <tie>
      Given a 2-player podkidnoy game
      And the option tie is <tie>
      And player 0 holds 7C
      And player 1 holds 9C
      When player 0 attacks with 7C
      And the defender beats 7C with 9C
      Then the game is over
      And <result>

      Examples:
        | tie           | result               |
        | draw          | the game is a draw   |
        | defender_fool | player 1 is the fool |

  Rule: Who wins
    @R-END-4
    Scenario Outline: Player 2 then player 0 go out, player 1 is the fool; win_mode <win_mode>
      Given a 3-player podkidnoy game
      And the option win_mode is <win_mode>
      And player 2 is the attacker
      And player 2 holds 7C
      And player 0 holds 9C
      And player 1 holds 8D, JD
      When player 2 attacks with 7C
      And the defender beats 7C with 9C
      Then player 1 is the fool
      And <winners>

      Examples:
        | win_mode       | winners                         |
        | loser_only     | nobody wins                     |
        | first_out_wins | the winners are player 2        |
        | ranking        | the winners are players 2 and 0 |

  Rule: The fool with epaulettes
    @R-END-6
    Scenario Outline: The fool picks up a six he could not beat, epaulettes <epaulettes>
      Player 0 leads both his sixes; the defender beats the six of clubs and takes the six of
      diamonds.

      Given a 2-player podkidnoy game
      And the option epaulettes is <epaulettes>
      And player 0 holds 6C, 6D
      And player 1 holds 7C, 8S, 9S, TS
      When player 0 attacks with 6C and 6D
      And the defender beats 6C with 7C
      And the defender takes
      Then player 1 is the fool
      And <epaulettes counted>

      Examples:
        | epaulettes | epaulettes counted         |
        | on         | the fool wears 1 epaulette |
        | off        | no epaulettes are counted  |

    @R-END-6 @opt:epaulettes=on
    Scenario: A fool who did not take in the last bout wears none
      Given a 2-player podkidnoy game
      And player 1 is the attacker
      And player 1 holds 6C, 8C, KD
      And player 0 holds 9C
      When player 1 attacks with 6C
      And the defender beats 6C with 9C
      Then player 1 is the fool
      And the fool wears 0 epaulettes

  Rule: A game never ends by repetition
    With the talon empty, a run of taken bouts can bring every hand back to where it was. That
    ends nothing: the game goes on until at most one player holds cards.

    @R-END-5 @R-ROLE-4 @opt:pile_on=forbidden
    Scenario: Six taken bouts give every card back, and the game goes on
      Given a 3-player podkidnoy game
      And player 0 holds 7C, KH
      And player 1 holds QH, AH
      And player 2 holds 8D, KD
      When the players play:
        | player 0 | attacks with 7C |
        | player 1 | takes           |
        | player 2 | attacks with 8D |
        | player 0 | takes           |
        | player 1 | attacks with 7C |
        | player 2 | takes           |
        | player 0 | attacks with 8D |
        | player 1 | takes           |
        | player 2 | attacks with 7C |
        | player 0 | takes           |
        | player 1 | attacks with 8D |
        | player 2 | takes           |
      Then player 0 holds 7C, KH
      And player 1 holds QH, AH
      And player 2 holds 8D, KD
      And the game goes on
      And player 0 attacks next
      And the defender is player 1
